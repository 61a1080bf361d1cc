// The stride demos timed against stride 1 in one saturating run: stride 2 about 2x, stride 3
// as fast as stride 1, stride 6 about 2x, each in the band around the model's ratio.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

void expect_model_slowdown(const kit::Pattern& p) {
  kit::PatternBench a(p);
  kit::PatternBench b(lesson02::stride_one_demo());
  const kit::PatternPair pair = kit::saturating_pair(a, b);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(p, b.pattern()));
}

TEST(DemoSlowdown, StrideTwoTwiceAsSlow) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson02::stride_two_demo());
}

TEST(DemoSlowdown, StrideThreeAsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson02::stride_three_demo());
}

TEST(DemoSlowdown, StrideSixTwiceAsSlow) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson02::stride_six_demo());
}

} // namespace
