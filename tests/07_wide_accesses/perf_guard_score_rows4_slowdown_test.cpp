// score_rows4 timed against its conflict-free twin (the same kernel with the tile padded by
// one float4: same block, same shared buffer, same occupancy): the slowdown is the one the
// model predicts from the two traces, whatever the layout (about 6x for the starter, 1x once
// it is conflict-free). Skips where the 16-byte rules are not verified (sm_90 only).
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows4_timing.hpp"

namespace {

TEST(ScoreRows4Slowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  const auto misaligned = lesson07::testing::misalignment<lesson07::TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  KIT_REQUIRE_VERIFIED_RULES(
      lesson07::testing::exercise_trace(lesson07::kTileRows, lesson07::kTileDim));
  // Every instruction repeats once per block and column tile: one tile gives the ratio of
  // any shape.
  lesson07::testing::expect_slowdown_against_twin(
      lesson07::testing::model_ratio(lesson07::kTileRows, lesson07::kTileDim));
}

} // namespace
