// Part 2 timed: with a conflict-free table, eval_polys is as fast as its twin (model ratio 1:
// the band is 0.95-1.05).
#include <gtest/gtest.h>

#include <demo.hpp>

#include "eval_polys_gpu.hpp"
#include "eval_polys_trace.hpp"
#include "kit/prediction.hpp"
#include "kit/testing.hpp"

namespace {

TEST(EvalPolysSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  // Every instruction repeats once per block (and tile of points): one block gives the ratio
  // of any shape.
  const double ratio =
      lesson04::testing::model_ratio(lesson04::kPolysPerBlock, lesson04::kPointsPerBlock);
  ASSERT_TRUE(kit::prediction_equals(ratio, 1.0))
      << "the model says eval_polys spends more wavefronts than its twin: "
         "fix the table layout first (its CPU tests say where)";
  lesson04::testing::expect_slowdown_against_twin();
}

} // namespace
