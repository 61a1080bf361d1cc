// Part 3 timed: once every access costs its ideal, correlate is as fast as its conflict-free
// twin (model ratio 1: the band is 0.95-1.05).
#include <gtest/gtest.h>

#include <demo.hpp>

#include "correlate_timing.hpp"
#include "correlate_trace.hpp"
#include "kit/prediction.hpp"
#include "kit/testing.hpp"

namespace {

TEST(CorrelateSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  // Every block issues the same instructions: one block gives the ratio of any size.
  const double ratio = lesson02::testing::model_ratio(lesson02::kBlockThreads);
  ASSERT_TRUE(kit::prediction_equals(ratio, 1.0))
      << "the model says correlate spends more wavefronts than its twin: "
         "fix the layout first (its CPU tests say where)";
  lesson02::testing::expect_slowdown_against_twin();
}

} // namespace
