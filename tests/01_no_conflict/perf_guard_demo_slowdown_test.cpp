// The demos timed: stride 33 and a permutation run as fast as stride 1 (the model's ratio
// is 1: the band is 0.95-1.05), measured in one saturating run.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

void expect_as_fast_as_stride_one(const kit::Pattern& p) {
  kit::PatternBench a(p);
  kit::PatternBench b(lesson01::stride_one_demo());
  const kit::PatternPair pair = kit::saturating_pair(a, b);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(p, b.pattern()));
}

TEST(DemoSlowdown, Stride33AsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_as_fast_as_stride_one(lesson01::stride_33_demo());
}

TEST(DemoSlowdown, PermutationAsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_as_fast_as_stride_one(lesson01::permuted_demo());
}

} // namespace
