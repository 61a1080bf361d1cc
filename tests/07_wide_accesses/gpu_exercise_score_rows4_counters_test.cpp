// Part 2 on the GPU: the counters read every load and store of score_rows4 at the ideal the
// bank model gives it: the tile float4 loads, the feature float4 loads (one address for every
// lane) and the 4-byte staging stores. Skips where the 16-byte rules are not verified (sm_90
// only).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsCounters : public kit::testing::CounterTest {};

TEST_F(ScoreRowsCounters, EveryRequestAtItsIdeal) {
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  constexpr int kRows = 64 * 20 + 7, kCols = 100;
  const kit::Trace trace = lesson07::testing::Traces::exercise(kRows, kCols);
  KIT_REQUIRE_VERIFIED_RULES(trace);
  families::score_rows::testing::Problem p(kRows, kCols, lesson07::ScoreRows::kQueries);
  expect_ideal(
      "score_rows4", trace,
      [&] { lesson07::score_rows4(p.rows.get(), kRows, kCols, p.queries.get(), p.scores.get()); },
      "the float4 loads", "the staging stores");
}

} // namespace
