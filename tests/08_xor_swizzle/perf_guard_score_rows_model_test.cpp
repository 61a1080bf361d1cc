// score_rows timed against its padded twin (the same kernel with rows 34 floats apart: same
// block, same shared buffer, same occupancy): the ratio is the one the model predicts from the
// two traces, whatever the layout (about 10x slower for the starter's plain tile, faster than
// the twin once the tile is swizzled).
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  lesson08::testing::expect_slowdown_against_twin();
}

} // namespace
