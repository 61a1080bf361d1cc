// Part 2 on the GPU: the counters read one wavefront per request for every load and store of
// score_rows.
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsCounters : public kit::testing::CounterTest {};

TEST_F(ScoreRowsCounters, OneWavefrontPerRequest) {
  constexpr int kRows = 32 * 40 + 7, kCols = 100;
  kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(kRows) * kCols);
  kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(lesson03::kQueries) * kCols);
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson03::kQueries) * kRows);
  d_rows.fill_bytes(0);
  d_queries.fill_bytes(0);
  expect_ideal(
      "score_rows", lesson03::testing::exercise_trace(kRows, kCols),
      [&] { lesson03::score_rows(d_rows.get(), kRows, kCols, d_queries.get(), d_scores.get()); },
      "the tile column reads", "the staging stores");
}

} // namespace
