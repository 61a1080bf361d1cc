// What the bank model says about the kernel family and about the seed's claims, whatever
// your assignment: the README's figures are these (drawn by bank-map from the same model).
#include <gtest/gtest.h>

#include <array>

#include <demo.hpp>

#include "gemm_trace.hpp"
#include "kit/bank_model.hpp"
#include "kit/pattern.hpp"

namespace {

using namespace lesson09;
using lesson09::testing::Strided;
using lesson09::testing::StridedByFour;

int wavefronts(const kit::Pattern& p) {
  return kit::wavefronts(p.access, p.op);
}
int ideal(const kit::Pattern& p) {
  return kit::analyze(p.access, p.op).ideal;
}

/// Lane l is thread column l % threads_x of a warp `threads_x` column threads wide; it reads
/// word col(tx, j) of B's row k = 0 (row threads of one warp read the same words).
template <class ColFn>
kit::Pattern row_read(const char* name, int threads_x, ColFn col) {
  return kit::offset_pattern(
      name, sizeof(float), [&](unsigned lane) { return col(static_cast<int>(lane) % threads_x); });
}

TEST(Model, FragmentReadsOfTheFamily) {
  const kit::Pattern reads[] = {b_scalar_read_demo<Blocked>("blocked"),
                                b_scalar_read_demo<Strided>("strided"),
                                b_float4_read_demo<Blocked>("blocked"),
                                b_float4_read_demo<StridedByFour>("strided by four"),
                                a_column_read_demo(),
                                a_transposed_read_demo(),
                                a_transposing_store_demo()};
  // Each B read against its ideal: the blocked assignment's, scalar and float4, and the
  // twins' (strided, strided by four).
  EXPECT_GT(wavefronts(reads[0]), ideal(reads[0]));
  EXPECT_EQ(wavefronts(reads[1]), ideal(reads[1]));
  EXPECT_GT(wavefronts(reads[2]), ideal(reads[2]));
  EXPECT_EQ(wavefronts(reads[3]), ideal(reads[3]));
  // The seed's A read, the transposed float4 read (two addresses, each shared by a half-warp)
  // and the transposing store, each against its ideal; the transposed read's cost against the
  // phases of a float4 read.
  EXPECT_GT(wavefronts(reads[4]), ideal(reads[4]));
  EXPECT_EQ(wavefronts(reads[5]), ideal(reads[5]));
  EXPECT_LT(wavefronts(reads[5]), kit::kWarpSize / kit::detail::base_lanes_per_phase(16));
  EXPECT_GT(wavefronts(reads[6]), ideal(reads[6]));
}

TEST(Model, StridedByFourLoadsNeverAboveTheirIdeal) {
  const kit::Trace t = lesson09::testing::strided_by_four_trace(1000, 777, 301);
  for (const kit::TraceEntry& e : t.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    if (e.op == kit::SharedOp::load) {
      EXPECT_LE(r.wavefronts, r.ideal) << e.what;
    }
  }
}

// The seed's claim that a width-32 A_shared puts the whole segment in one bank, so that its
// read cannot conflict: a conflict is between the lanes of one instruction. The seed's A read,
// in this kernel's warp of 16 column threads x 2 row threads and in a warp of one row thread
// (32 column threads).
TEST(SeedClaims, ColumnSegmentOfAWidth32Tile) {
  const auto seed_a = [](int threads_x) { // As[4 ty + i][k] with rows of 32 floats, i = k = 0
    return kit::offset_pattern("seed A", sizeof(float), [=](unsigned lane) {
      return (static_cast<int>(lane) / threads_x) * 4 * 32;
    });
  };
  EXPECT_GT(wavefronts(seed_a(kThreadsX)), 1) << "16 x 2 warp";
  EXPECT_EQ(wavefronts(seed_a(kit::kWarpSize)), 1) << "32 x 1 warp";
}

// The seed's claim that a thread reading a row segment of 8 from B_shared spans 8 banks and so
// conflicts with the threads beside it: the blocked read, in a warp of 32 column threads and
// in this kernel's 16, against the segment's length.
TEST(SeedClaims, BlockedRowSegmentOfEight) {
  const auto blocked = [](int t) { return Blocked::col(t, 0); };
  EXPECT_EQ(wavefronts(row_read("blocked, 32 wide", kit::kWarpSize, blocked)), kFragN);
  EXPECT_LT(wavefronts(b_scalar_read_demo<Blocked>("blocked")), kFragN);
}

// "With a stride of 8, the i-th segment will contain (i, i+8, ..., i+120)-th elements ...
// the i-th thread only conflicts with the i+8-th thread": in one instruction lanes i and
// i + 8 read words i + 8 j and i + 8 + 8 j; every element j, in this kernel's warp.
TEST(SeedClaims, StrideEightThreadsIAndIPlusEight) {
  for (int j = 0; j < 2 * kFragN; ++j) {
    EXPECT_EQ(wavefronts(row_read("stride 8", kThreadsX, [j](int t) { return t + 8 * j; })), 1);
  }
}

// "To fully eliminate the bank conflict, we need to increase blockDim.x to 32": the strided
// assignment with this kernel's 16 column threads against its ideal, and the blocked one with
// 32 column threads (b_scalar_read_32_wide_demo) against its own.
TEST(SeedClaims, BlockDimXOfThirtyTwo) {
  EXPECT_EQ(wavefronts(b_scalar_read_demo<Strided>("strided")), 1);
  const kit::Pattern wide = b_scalar_read_32_wide_demo();
  EXPECT_GT(wavefronts(wide), ideal(wide));
}

} // namespace
