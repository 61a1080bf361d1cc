// Part 2 timed: with every access at its ideal, score_rows beats the best padding by the
// model's margin (column reads of 1 wavefront against 2), measured in one run.
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSpeed, FasterThanTheBestPadding) {
  KIT_REQUIRE_TIMING();
  // Every instruction repeats once per block and column tile: one tile gives the ratio of
  // any shape.
  const double ratio = lesson08::testing::model_ratio(lesson08::kTileDim, lesson08::kTileDim);
  const double ideal = lesson08::testing::ideal_ratio(lesson08::kTileDim, lesson08::kTileDim);
  ASSERT_DOUBLE_EQ(ratio, ideal) << "the model says score_rows spends " << ratio
                                 << "x the wavefronts of its padded twin, where every access "
                                    "at its ideal gives "
                                 << ideal << "x: fix the tile layout first";
  lesson08::testing::expect_slowdown_against_twin();
}

} // namespace
