// score_rows4 timed against its twin (twin.hpp: the same kernel with a padded tile: same
// block, same shared buffer, same occupancy): the slowdown lands in the band around the
// model's ratio of the two traces, whatever the layout; where other work sets the kernel's
// time, one tile of its shared-memory accesses replayed alone shows the model's ratio
// instead. Skips where the 16-byte rules are not verified (sm_90 only).
#include <gtest/gtest.h>

#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  using lesson07::testing::Traces;
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  KIT_REQUIRE_VERIFIED_RULES(Traces::exercise(lesson07::kTileRows, lesson07::kTileDim));
  lesson07::testing::expect_slowdown_against_twin();
}

} // namespace
