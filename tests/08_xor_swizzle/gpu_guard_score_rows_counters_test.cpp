// The bank model predicts score_rows exactly, whatever its layout: the counters equal the
// trace built from the kernel's own layout and pair store, requests included.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsTrace : public kit::testing::CounterTest {};

TEST_F(ScoreRowsTrace, CountersEqualTheModel) {
  using lesson08::testing::Traces;
  KIT_REQUIRE_VERIFIED_RULES(Traces::twin(lesson08::kTileDim, lesson08::kTileDim));
  for (auto [n_rows, n_cols] : {std::pair{32 * 40, 96}, std::pair{1000, 77}}) {
    families::score_rows::testing::Problem p(n_rows, n_cols, lesson08::ScoreRows::kQueries);
    const std::string shape = std::to_string(n_rows) + "x" + std::to_string(n_cols);
    expect_counts("score_rows " + shape, Traces::exercise(n_rows, n_cols), [&] {
      lesson08::score_rows(p.rows.get(), n_rows, n_cols, p.queries.get(), p.scores.get());
    });
    expect_counts("score_rows_twin " + shape, Traces::twin(n_rows, n_cols), [&] {
      lesson08::testing::score_rows_twin(p.rows.get(), n_rows, n_cols, p.queries.get(),
                                         p.scores.get());
    });
  }
}

} // namespace
