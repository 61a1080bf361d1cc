// The given parts of the tile must stay sound whatever you change: every thread of phase 1
// has a tile element and an offset of its own inside the tile, phase 1's row stores are held to
// the model in both tiles, and the padded tile fits a block's static shared memory.
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::kTileDim;

template <class Tile>
void expect_offsets_distinct_and_inside(const char* which) {
  static_assert(lesson05::testing::holds_the_tile<Tile>());
  std::vector<int> seen(static_cast<std::size_t>(kit::cosize<Tile>(kTileDim, kTileDim)), 0);
  for (int y = 0; y < kTileDim; ++y) {
    for (int x = 0; x < kTileDim; ++x) {
      const kit::Coord e = lesson05::store_coord(x, y);
      ASSERT_TRUE(e.row >= 0 && e.row < kTileDim && e.col >= 0 && e.col < kTileDim)
          << which << ", thread (" << x << ", " << y << "): tile element (" << e.row << ", "
          << e.col << ")";
      const int offset = Tile{}(e.row, e.col);
      ASSERT_EQ(seen[static_cast<std::size_t>(offset)]++, 0)
          << which << ": two elements share offset " << offset;
    }
  }
}

TEST(Layout, EveryElementHasASlotOfItsOwn) {
  expect_offsets_distinct_and_inside<lesson05::TiledLayout>("the plain tile");
  expect_offsets_distinct_and_inside<lesson05::PaddedLayout>("the padded tile");
}

TEST(Layout, RowStoresOfBothTiles) {
  for (const kit::Trace& trace : {lesson05::testing::tiled_trace(kTileDim, kTileDim),
                                  lesson05::testing::padded_trace(kTileDim, kTileDim)}) {
    for (const kit::TraceEntry& e : trace.entries()) {
      if (e.op == kit::SharedOp::store) {
        const kit::BankReport r = kit::analyze(e.access, e.op);
        ASSERT_TRUE(r.ok()) << e.what;
        EXPECT_EQ(r.wavefronts, r.ideal) << e.what;
      }
    }
  }
}

TEST(Layout, PaddedTileFitsStaticSharedMemory) {
  constexpr int kStaticSharedLimit = 48 * 1024; // bytes of __shared__ a block may declare
  EXPECT_GE(lesson05::kPaddedPitch, kTileDim) << "a tile row must hold kTileDim floats";
  EXPECT_LE(kit::cosize<lesson05::PaddedLayout>(kTileDim, kTileDim) *
                static_cast<int>(sizeof(float)),
            kStaticSharedLimit);
}

} // namespace
