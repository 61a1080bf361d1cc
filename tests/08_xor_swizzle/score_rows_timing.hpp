// score_rows timed against its padded twin in one saturating run (GPU tests only).
#pragma once

#include <cstddef>
#include <string>

#include <demo.hpp>

#include "kit/bands.hpp"
#include "kit/testing.hpp"
#include "kit/testing_score_rows.hpp"
#include "score_rows_trace.hpp"

namespace lesson08::testing {

/// score_rows and its twin on 8 full waves of blocks of this GPU, 8 column tiles each, ready
/// for the timer: same block, same static shared memory (kSharedFloats floats), so the timer's
/// occupancy check holds.
struct ScoreRowsRun {
  kit::testing::ScoreRowsProblem p{
      kit::saturating_blocks(score_rows_twin_kernel(), kBlockThreads, 0) * kTileDim * 8,
      kTileDim * 8, kQueries};

  kit::Launch exercise() {
    return p.launch("score_rows", score_rows_kernel(), kBlockThreads,
                    [](auto... args) { score_rows(args...); });
  }
  kit::Launch twin() {
    return p.launch("score_rows_twin (pitch 34)", score_rows_twin_kernel(), kBlockThreads,
                    [](auto... args) { score_rows_twin(args...); });
  }
};

/// Times score_rows against score_rows_twin and expects the ratio in the band around the
/// model's ratio of their traces: the regime where the shared-memory pipe sets the time.
inline void expect_slowdown_against_twin() {
  ScoreRowsRun run;
  KIT_EXPECT_SLOWDOWN(run.exercise(), run.twin(), model_ratio(run.p.n_rows, run.p.n_cols));
}

/// Times score_rows against score_rows_twin and expects it no slower: its time over the twin's
/// at most kit::kUnitBandHigh, the kit's band for "no slowdown". Prints the measurement as a
/// [kit-slowdown] line beside the model's ratio (which it does not reach: README).
inline void expect_no_slower_than_twin() {
  ScoreRowsRun run;
  const double model = model_ratio(run.p.n_rows, run.p.n_cols);
  const kit::AtLeastVerdict at = kit::judge_at_least(
      run.exercise(), run.twin(), [](const kit::Slowdown& s) { return 1.0 / s.ratio; },
      1.0 / kit::kUnitBandHigh, "score_rows' speed over the padded twin's");
  kit::SlowdownVerdict v;
  v.kind = at.kind;
  v.model_ratio = model;
  v.last = at.measured;
  v.attempts = at.attempts;
  v.message = "'score_rows' over 'score_rows_twin (pitch 34)': " + at.message;
  kit::testing::report(v);
  KIT_EXPECT_VERDICT(at, "");
}

} // namespace lesson08::testing
