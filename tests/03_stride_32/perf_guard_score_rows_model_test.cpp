// score_rows timed against its twin (twin.hpp: the same kernel with a padded tile: same block,
// same shared buffer, same occupancy): the slowdown lands in the band around the model's ratio
// of the two traces, whatever the layout.
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  lesson03::testing::expect_slowdown_against_twin();
}

} // namespace
