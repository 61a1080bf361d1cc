// The timer shows what the hardware does: a 2-way and a 32-way conflict slow a saturating
// launch down by the model's ratio (within the band), and it refuses unequal comparisons.
#include <gtest/gtest.h>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

TEST(Timer, FloatStrideTwoCostsTwo) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(kit::strided_pattern(4, 2), kit::strided_pattern(4, 1));
}

TEST(Timer, FloatStride32Costs32) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(kit::strided_pattern(4, 32), kit::strided_pattern(4, 1));
}

TEST(Timer, DoubleAndFloat4CostTheirIdeal) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(kit::strided_pattern(8, 1), kit::strided_pattern(4, 1));
  kit::testing::expect_model_slowdown(kit::strided_pattern(16, 1), kit::strided_pattern(4, 1));
}

TEST(Timer, RefusesUnequalSharedMemory) {
  KIT_REQUIRE_GPU();
  kit::PatternBench a(kit::strided_pattern(4, 64)), b(kit::strided_pattern(4, 1));
  EXPECT_THROW(kit::measure_slowdown(a.launch(1, 1), b.launch(1, 1)), std::logic_error);
}

} // namespace
