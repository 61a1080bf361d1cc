// The bank model predicts score_rows exactly, whatever its layout: the counters equal the
// trace built from the kernel's own layout and pair store, requests included.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsTrace : public kit::testing::CounterTest {};

TEST_F(ScoreRowsTrace, CountersEqualTheModel) {
  KIT_REQUIRE_VERIFIED_RULES(lesson08::testing::twin_trace(lesson08::kTileDim, lesson08::kTileDim));
  for (auto [n_rows, n_cols] : {std::pair{32 * 40, 96}, std::pair{1000, 77}}) {
    kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(n_rows) * n_cols);
    kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(lesson08::kQueries) * n_cols);
    kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson08::kQueries) * n_rows);
    d_rows.fill_bytes(0);
    d_queries.fill_bytes(0);
    const std::string shape = std::to_string(n_rows) + "x" + std::to_string(n_cols);
    expect_counts("score_rows " + shape, lesson08::testing::exercise_trace(n_rows, n_cols), [&] {
      lesson08::score_rows(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get());
    });
    expect_counts("score_rows_twin " + shape, lesson08::testing::twin_trace(n_rows, n_cols), [&] {
      lesson08::score_rows_twin(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get());
    });
  }
}

} // namespace
