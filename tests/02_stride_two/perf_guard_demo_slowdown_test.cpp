// The stride demos timed against stride 1 in one saturating run: strides 2, 3 and 6, each in
// the kit's band around the model's ratio.
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
