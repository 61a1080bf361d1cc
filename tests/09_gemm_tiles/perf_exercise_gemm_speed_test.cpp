// Part 2 timed: with conflict-free fragment reads, gemm_exercise runs faster than the blocked
// float4 kernel by at least half the gain the twin showed over it on the reference GPU
// (docs/measurements/gemm_gain.csv: the median of 10 runs, with device and date).
#include <gtest/gtest.h>

#include "gemm_run.hpp"
#include "gemm_speed.hpp"
#include "kit/testing.hpp"

namespace {

TEST(GemmSpeed, ExerciseBeatsBlockedFloat4) {
  KIT_REQUIRE_TIMING();
  const auto all = lesson09::testing::variants();
  lesson09::testing::expect_half_the_recorded_gain(
      all[2], all[3], "gemm_twin",
      ". Does every float4 fragment read cost its ideal (the CPU tests), and do the counters "
      "agree (GemmExerciseCounters)?");
}

} // namespace
