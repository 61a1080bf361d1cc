// Properties of CuTe's Swizzle<B, M, S> for the demos' swizzles and others of every shape,
// and what the model says each demo's swizzle does to the lesson's accesses (no GPU needed).
#include <gtest/gtest.h>

#include <vector>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/ldmatrix.hpp"

namespace {

/// Every property for one swizzle: a bijection on every aligned block of 2^(B + M + S)
/// offsets, its own inverse, groups of 2^M offsets kept whole and in order.
template <class Sw>
void expect_swizzle_properties(const char* name) {
  constexpr int kBlock = 1 << (Sw::kBits + Sw::kBase + Sw::kShift);
  for (int block = 0; block < 4; ++block) {
    std::vector<int> seen(kBlock, 0);
    for (int o = block * kBlock; o < (block + 1) * kBlock; ++o) {
      const int s = Sw{}(o);
      ASSERT_GE(s, block * kBlock) << name << " moves offset " << o << " out of its block";
      ASSERT_LT(s, (block + 1) * kBlock) << name << " moves offset " << o << " out of its block";
      ++seen[s - block * kBlock];
      ASSERT_EQ(Sw{}(s), o) << name << " is not its own inverse at offset " << o;
      ASSERT_EQ(s % (1 << Sw::kBase), o % (1 << Sw::kBase))
          << name << " changes the low " << Sw::kBase << " bits of offset " << o;
    }
    for (int k = 0; k < kBlock; ++k) {
      ASSERT_EQ(seen[k], 1) << name << " is not a bijection on block " << block;
    }
  }
}

TEST(Swizzle, Properties) {
  expect_swizzle_properties<lesson08::ChunkSwizzle>("Swizzle<3,2,3>");
  expect_swizzle_properties<lesson08::PairSwizzle>("Swizzle<4,1,4>");
  // Others of every shape: no low bits kept, a source far above, the TMA's 128-byte swizzle.
  expect_swizzle_properties<kit::Swizzle<4, 0, 6>>("Swizzle<4,0,6>");
  expect_swizzle_properties<kit::Swizzle<2, 3, 4>>("Swizzle<2,3,4>");
  expect_swizzle_properties<kit::Swizzle<3, 4, 3>>("Swizzle<3,4,3>");
}

TEST(Swizzle, RowsStayRowsOnTheFloatTile) {
  // The row bits are the source, never changed: every swizzle of the lesson permutes within
  // a row, so a row store still covers 32 consecutive words.
  for (int r = 0; r < lesson08::kTileDim; ++r) {
    for (int c = 0; c < lesson08::kTileDim; ++c) {
      EXPECT_EQ(lesson08::ChunkSwizzledTile{}(r, c) / lesson08::kTileDim, r);
      EXPECT_EQ(lesson08::PairSwizzledTile{}(r, c) / lesson08::kTileDim, r);
    }
  }
}

TEST(Swizzle, ModelCostsOfTheDemos) {
  // Every column and every pair store, not only column 0 and rows 0-1: the demos' costs hold
  // for the whole tile.
  for (int c = 0; c < lesson08::kTileDim; ++c) {
    EXPECT_EQ(kit::wavefronts(lesson08::chunk_column_demo(c).access),
              kit::wavefronts(lesson08::chunk_column_demo(0).access));
    EXPECT_EQ(kit::wavefronts(lesson08::pair_column_demo(c).access),
              kit::wavefronts(lesson08::pair_column_demo(0).access));
  }
  for (int r0 = 0; r0 < lesson08::kTileDim; r0 += 2) {
    const kit::Pattern p = lesson08::pair_store_demo<lesson08::PairSwizzledTile>("pair", r0);
    EXPECT_EQ(kit::wavefronts(p.access, kit::SharedOp::store), 2) << p.name;
  }
  // The lesson's ladder: the chunk XOR's column read against the pair XOR's, and the pair
  // XOR's against padding by 2.
  EXPECT_GT(kit::wavefronts(lesson08::chunk_column_demo().access),
            kit::wavefronts(lesson08::pair_column_demo().access));
  EXPECT_EQ(kit::wavefronts(lesson08::pair_column_demo().access),
            kit::wavefronts(lesson08::pitch34_column_demo().access));
}

} // namespace
