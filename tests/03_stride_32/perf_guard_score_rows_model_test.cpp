// score_rows timed against its conflict-free twin (the same kernel with the padded tile: same
// block, same shared buffer, same occupancy): the slowdown is the one the model predicts from
// the two traces, whatever the layout (about 20x for the starter, 1x once it is conflict-free).
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  lesson03::testing::expect_slowdown_against_twin();
}

} // namespace
