// The demos timed in a saturating launch, each against its stride-1 baseline in the same run:
// the slowdown lands in the kit's band around the model's ratio (the half column, the float
// column, half stride 64 and half stride 2).
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

using kit::testing::expect_model_slowdown;

TEST(DemoSlowdown, HalfColumnOverHalfStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson06::half_column_demo(), lesson06::half_stride_one_demo());
}

TEST(DemoSlowdown, FloatColumnOverFloatStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson06::float_column_demo(), lesson06::float_stride_one_demo());
}

TEST(DemoSlowdown, HalfStride64OverHalfStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson06::half_stride_64_demo(), lesson06::half_stride_one_demo());
}

TEST(DemoSlowdown, HalfStrideTwoOverStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson06::half_stride_two_demo(), lesson06::half_stride_one_demo());
}

} // namespace
