// Part 2 timed: with a conflict-free tile, score_rows is as fast as its twin (model ratio 1:
// the band is 0.95-1.05).
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  // Every instruction repeats once per block and column tile: one tile gives the ratio of
  // any shape.
  const double ratio =
      lesson03::testing::Traces::model_ratio(lesson03::kTileRows, lesson03::kTileDim);
  ASSERT_DOUBLE_EQ(ratio, 1.0) << "the model says score_rows spends " << ratio
                               << "x the wavefronts of its twin: fix the tile layout first";
  lesson03::testing::expect_slowdown_against_twin();
}

} // namespace
