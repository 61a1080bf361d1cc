// score_rows timed against its padded twin (the same kernel with rows 34 floats apart: same
// block, same shared buffer, same occupancy). While the tile has conflicts the shared-memory
// pipe sets the kernel's time and the ratio is the model's; once every access is at its ideal,
// the pipe no longer does (README: the XOR's instructions take the time it freed), and the
// kernel must simply be no slower than the twin.
#include <gtest/gtest.h>

#include "kit/bands.hpp"
#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSlowdown, AsTheModelPredictsWhileConflicted) {
  KIT_REQUIRE_TIMING();
  const double ratio =
      lesson08::testing::Traces::model_ratio(lesson08::kTileDim, lesson08::kTileDim);
  if (ratio > kit::kUnitBandHigh) {
    lesson08::testing::expect_slowdown_against_twin();
  } else {
    lesson08::testing::expect_no_slower_than_twin();
  }
}

} // namespace
