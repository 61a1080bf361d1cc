// The bank model predicts score_rows4 exactly, whatever its layout: the counters equal the
// trace built from the kernel's own index functions, requests included (a merged or split
// access would show there). Skips where the 16-byte rules are not verified (sm_90 only).
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
  using lesson07::testing::Traces;
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  KIT_REQUIRE_VERIFIED_RULES(Traces::twin(64, 32));
  for (auto [n_rows, n_cols] : {std::pair{64 * 20, 96}, std::pair{1000, 77}}) {
    families::score_rows::testing::Problem p(n_rows, n_cols, lesson07::ScoreRows::kQueries);
    const std::string shape = std::to_string(n_rows) + "x" + std::to_string(n_cols);
    expect_counts("score_rows4 " + shape, Traces::exercise(n_rows, n_cols), [&] {
      lesson07::score_rows4(p.rows.get(), n_rows, n_cols, p.queries.get(), p.scores.get());
    });
    expect_counts("score_rows4_twin " + shape, Traces::twin(n_rows, n_cols), [&] {
      lesson07::testing::score_rows4_twin(p.rows.get(), n_rows, n_cols, p.queries.get(),
                                          p.scores.get());
    });
  }
}

} // namespace
