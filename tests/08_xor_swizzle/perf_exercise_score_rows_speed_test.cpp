// Part 2 timed: with every access at its ideal, score_rows is no slower than the best padding
// (measured in one run), without a byte of padding.
#include <gtest/gtest.h>

#include "kit/prediction.hpp"
#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSpeed, NoSlowerThanTheBestPadding) {
  KIT_REQUIRE_TIMING();
  // Every instruction repeats once per block and column tile: one tile gives the ratio of
  // any shape.
  const double ratio =
      lesson08::testing::Traces::model_ratio(lesson08::kTileDim, lesson08::kTileDim);
  const double ideal =
      lesson08::testing::Traces::ideal_ratio(lesson08::kTileDim, lesson08::kTileDim);
  ASSERT_TRUE(kit::prediction_equals(ratio, ideal))
      << "the model says score_rows spends more wavefronts than every "
         "access at its ideal would: fix the tile layout first (its CPU "
         "tests say where)";
  lesson08::testing::expect_no_slower_than_twin();
}

} // namespace
