// Part 2 timed: with a conflict-free tile, score_rows4 runs as fast as its twin (the band
// around 1: 0.95-1.05), or, where the layout's index arithmetic sets the kernel's time (a
// swizzle instead of padding), its tile's shared-memory accesses replayed alone do. The twin
// is the reference, so this test needs no bank rule and runs on every GPU: it is how a GPU
// other than sm_90 grades Part 2.
#include <gtest/gtest.h>

#include "kit/prediction.hpp"
#include "kit/testing.hpp"
#include "score_rows_timing.hpp"

namespace {

TEST(ScoreRowsSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  const double ratio =
      lesson07::testing::Traces::model_ratio(lesson07::kTileRows, lesson07::kTileDim);
  ASSERT_TRUE(kit::prediction_equals(ratio, 1.0))
      << "the model says score_rows4 spends more wavefronts than its twin: "
         "fix the tile layout first (its CPU tests say where)";
  lesson07::testing::expect_slowdown_against_twin();
}

} // namespace
