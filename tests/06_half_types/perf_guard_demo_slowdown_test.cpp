// The demos timed in a saturating launch, each against its stride-1 baseline in the same run:
// the slowdown lands in the kit's band around the model's ratio (16 for the half column,
// 32 for the float column and half stride 64, 1 for half stride 2).
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

void expect_model_slowdown(const kit::Pattern& a, const kit::Pattern& b) {
  kit::PatternBench pa(a), pb(b);
  const kit::PatternPair pair = kit::saturating_pair(pa, pb);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(a, b));
}

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

TEST(DemoSlowdown, HalfStrideTwoAsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson06::half_stride_two_demo(), lesson06::half_stride_one_demo());
}

} // namespace
