// The stride demos timed against stride 1 in one saturating run: stride 2 about 2x, stride 3
// as fast as stride 1, stride 6 about 2x, each in the band around the model's ratio.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

TEST(DemoSlowdown, StrideTwoOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson02::stride_two_demo(), lesson02::stride_one_demo());
}

TEST(DemoSlowdown, StrideThreeOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson02::stride_three_demo(), lesson02::stride_one_demo());
}

TEST(DemoSlowdown, StrideSixOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson02::stride_six_demo(), lesson02::stride_one_demo());
}

} // namespace
