// Part 2 on the GPU: the counters read every load and store of score_rows at its ideal: the
// column reads and the pair stores. Where the 8-byte rule was not verified (not sm_90), the
// 4-byte loads alone: the column reads at their ideal.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

class ScoreRowsCounters : public kit::testing::CounterTest {};

TEST_F(ScoreRowsCounters, EveryRequestAtItsIdeal) {
  constexpr int kRows = 32 * 40 + 7, kCols = 100;
  const kit::Trace trace = lesson08::testing::Traces::exercise(kRows, kCols);
  families::score_rows::testing::Problem p(kRows, kCols, lesson08::ScoreRows::kQueries);
  const auto launch = [&] {
    lesson08::score_rows(p.rows.get(), kRows, kCols, p.queries.get(), p.scores.get());
  };
  if (const auto why = kit::testing::unverified_rule(trace)) {
    // The loads are all 4 bytes wide (rule 1, verified everywhere): hold them alone.
    const kit::SharedCounters c = session().measure(launch);
    kit::testing::report("score_rows (loads only: " + *why + ")", c, trace.expected());
    const kit::SharedCounts ideal = trace.ideal();
    EXPECT_EQ(c.sass.load_requests, ideal.load_requests)
        << "score_rows: the kernel does not issue the loads its trace describes";
    EXPECT_TRUE(c.sass.load_wavefronts == ideal.load_wavefronts)
        << "score_rows: the tile column reads conflict: the counters read more wavefronts than "
        << "the ideal of their " << c.sass.load_requests << " requests";
    return;
  }
  expect_ideal("score_rows", trace, launch, "the tile column reads", "the pair stores");
}

} // namespace
