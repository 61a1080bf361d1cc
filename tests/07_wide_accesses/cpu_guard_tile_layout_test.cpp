// The tile layout must lose no value: TileLayout must map the block's tile (kTileRows x
// kTileDim) one-to-one into the kTileCapacity floats reserved for it; the staging stores,
// which write tile rows 4 bytes a lane, must cost their ideal; and every float4 load must be
// 16-byte aligned. Keep all three true as you change the layout. The twin's layout is aligned
// and at its ideal.
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows/layout_checks.hpp"
#include "score_rows_trace.hpp"

namespace {

TEST(TileLayout, OneToOneIntoTheTileBuffer) {
  ASSERT_TRUE((families::score_rows::one_to_one_in_the_tile_buffer<lesson07::ScoreRows,
                                                                   lesson07::TileLayout>()));
}

TEST(TileLayout, EveryFloat4LoadIsAligned) {
  // A misaligned shared access is a fault, not a slowdown: checked here, before any launch
  // (the launchers refuse such a layout too).
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
}

TEST(TileLayout, EveryRowStoreAtItsIdeal) {
  ASSERT_TRUE((families::score_rows::row_stores_at_one_wavefront<lesson07::ScoreRows,
                                                                 lesson07::TileLayout>()));
}

TEST(TileLayout, TheTwinIsAlignedAndAtItsIdeal) {
  using lesson07::testing::TwinTileLayout;
  ASSERT_FALSE(
      (families::score_rows::misalignment<lesson07::ScoreRows, TwinTileLayout>().has_value()));
  const kit::Trace t = lesson07::testing::Traces::twin(1000, 777);
  EXPECT_EQ(t.expected(), t.ideal()) << t.describe();
}

} // namespace
