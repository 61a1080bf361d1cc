// Part 2 on the GPU: the counters read one wavefront per request for every load and store of
// score_rows.
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsCounters : public kit::testing::CounterTest {};

TEST_F(ScoreRowsCounters, OneWavefrontPerRequest) {
  constexpr int kRows = 32 * 40 + 7, kCols = 100;
  families::score_rows::testing::Problem p(kRows, kCols, lesson03::ScoreRows::kQueries);
  expect_ideal(
      "score_rows", lesson03::testing::Traces::exercise(kRows, kCols),
      [&] { lesson03::score_rows(p.rows.get(), kRows, kCols, p.queries.get(), p.scores.get()); },
      "the tile column reads", "the staging stores");
}

} // namespace
