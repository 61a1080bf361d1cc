// The demos timed: stride 33 and a permutation run as fast as stride 1 (the model's ratio
// is 1: the band is 0.95-1.05), measured in one saturating run.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

TEST(DemoSlowdown, Stride33OverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson01::stride_33_demo(), lesson01::stride_one_demo());
}

TEST(DemoSlowdown, PermutationOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson01::permuted_demo(), lesson01::stride_one_demo());
}

} // namespace
