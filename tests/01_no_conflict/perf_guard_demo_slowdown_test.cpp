// The demos timed: stride 33 and a permutation, each against stride 1 in one saturating run,
// land in the kit's band around the model's ratio.
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
