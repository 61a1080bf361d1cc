// Part 2 timed: with conflict-free fragment reads, gemm_exercise runs faster than the seed's
// blocked kernel by at least half the gain its twin showed on the reference GPU
// (docs/measurements/gemm_gain.csv: the median of 10 runs, with device and date).
#include <gtest/gtest.h>

#include "gemm_run.hpp"
#include "gemm_speed.hpp"
#include "kit/testing.hpp"

namespace {

TEST(GemmSpeed, ExerciseBeatsBlockedScalar) {
  KIT_REQUIRE_TIMING();
  using lesson09::testing::variant;
  lesson09::testing::expect_half_the_recorded_gain(
      variant("gemm_blocked_scalar"), variant("gemm_exercise"), "gemm_strided_scalar",
      ". Does every fragment read cost its ideal (the CPU tests), and do the counters agree "
      "(GemmExerciseCounters)?");
}

} // namespace
