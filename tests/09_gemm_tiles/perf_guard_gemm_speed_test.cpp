// Virtual threads timed: the strided scalar kernel runs faster than the seed's blocked one by
// at least half the gain recorded on the reference GPU (docs/measurements/gemm_gain.csv).
#include <gtest/gtest.h>

#include "gemm_run.hpp"
#include "gemm_speed.hpp"
#include "kit/testing.hpp"

namespace {

TEST(GemmSpeed, StridedBeatsBlockedScalar) {
  KIT_REQUIRE_TIMING();
  using lesson09::testing::variant;
  lesson09::testing::expect_half_the_recorded_gain(
      variant("gemm_blocked_scalar"), variant("gemm_strided_scalar"), "gemm_strided_scalar", "");
}

} // namespace
