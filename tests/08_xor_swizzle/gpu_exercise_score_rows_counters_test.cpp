// Part 2 on the GPU: the counters read every load and store of score_rows at its ideal:
// column reads 1 wavefront, pair stores 2.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsCounters : public kit::testing::CounterTest {};

TEST_F(ScoreRowsCounters, EveryRequestAtItsIdeal) {
  constexpr int kRows = 32 * 40 + 7, kCols = 100;
  const kit::Trace trace = lesson08::testing::exercise_trace(kRows, kCols);
  KIT_REQUIRE_VERIFIED_RULES(trace);
  kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(kRows) * kCols);
  kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(lesson08::kQueries) * kCols);
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson08::kQueries) * kRows);
  d_rows.fill_bytes(0);
  d_queries.fill_bytes(0);
  expect_ideal(
      "score_rows", trace,
      [&] { lesson08::score_rows(d_rows.get(), kRows, kCols, d_queries.get(), d_scores.get()); },
      "the tile column reads", "the pair stores");
}

} // namespace
