// The bank model predicts score_rows exactly, whatever its layout: the counters equal the
// trace built from the kernel's own index functions, requests included (a merged or split
// access would show there).
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
  using lesson03::testing::Traces;
  for (auto [n_rows, n_cols] : {std::pair{32 * 40, 96}, std::pair{1000, 77}}) {
    families::score_rows::testing::Problem p(n_rows, n_cols, lesson03::ScoreRows::kQueries);
    const std::string shape = std::to_string(n_rows) + "x" + std::to_string(n_cols);
    expect_counts("score_rows " + shape, Traces::exercise(n_rows, n_cols), [&] {
      lesson03::score_rows(p.rows.get(), n_rows, n_cols, p.queries.get(), p.scores.get());
    });
    expect_counts("score_rows_twin " + shape, Traces::twin(n_rows, n_cols), [&] {
      lesson03::testing::score_rows_twin(p.rows.get(), n_rows, n_cols, p.queries.get(),
                                         p.scores.get());
    });
  }
}

} // namespace
