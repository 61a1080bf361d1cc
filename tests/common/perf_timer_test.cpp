// The timer shows what the hardware does: a 2-way and a 32-way conflict slow a saturating
// launch down by the model's ratio (within the band), so does a trace replayed against
// another, and it refuses unequal comparisons.
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

TEST(Timer, ReplaysCostTheirTracesRatio) {
  KIT_REQUIRE_TIMING();
  // Two traces of the same instructions but one: a float column read (32-way) where the other
  // reads a row. The model: (2 x 32 + 4 + 4) / (2 x 1 + 4 + 4) = 7.2.
  kit::Trace a, b;
  a.add(kit::SharedOp::load, kit::strided_access(4, 32), 2, "column");
  b.add(kit::SharedOp::load, kit::strided_access(4, 1), 2, "row");
  for (kit::Trace* t : {&a, &b}) {
    t->add(kit::SharedOp::load, kit::strided_access(16, 1), 1, "float4 row");
    t->add(kit::SharedOp::store, kit::strided_access(4, 1, 256), 4, "float row store");
  }
  kit::TraceReplay ra("column trace", a), rb("row trace", b);
  const kit::ReplayPair pair = kit::saturating_replays(ra, rb);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(a, b));
}

TEST(Timer, RefusesUnequalSharedMemory) {
  KIT_REQUIRE_GPU();
  kit::PatternBench a(kit::strided_pattern(4, 64)), b(kit::strided_pattern(4, 1));
  EXPECT_THROW(kit::measure_slowdown(a.launch(1, 1), b.launch(1, 1)), std::logic_error);
}

} // namespace
