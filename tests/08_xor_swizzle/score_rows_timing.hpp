// score_rows timed against its padded twin in one saturating run (GPU tests only).
#pragma once

#include <demo.hpp>

#include "kit/bands.hpp"
#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"
#include "twin.hpp"

namespace lesson08::testing {

/// score_rows and its twin as the timer names them.
inline families::score_rows::testing::Kernel exercise_kernel() {
  return {"score_rows", score_rows_kernel(), score_rows};
}
/// See exercise_kernel().
inline families::score_rows::testing::Kernel twin_kernel() {
  return {"score_rows_twin (pitch 34)", score_rows_twin_kernel(), score_rows_twin};
}

/// Times score_rows against score_rows_twin and expects the ratio in the band around the
/// model's ratio of their traces: the regime where the shared-memory pipe sets the time.
inline void expect_slowdown_against_twin() {
  families::score_rows::testing::expect_slowdown<ScoreRows, Traces>(exercise_kernel(),
                                                                    twin_kernel());
}

/// Times score_rows against score_rows_twin and expects it no slower: its time over the twin's
/// at most kit::kUnitBandHigh, the kit's band for "no slowdown". Prints the measurement as a
/// [kit-slowdown] line beside the model's ratio (which it does not reach: README).
inline void expect_no_slower_than_twin() {
  families::score_rows::testing::expect_no_slower<ScoreRows, Traces>(
      exercise_kernel(), twin_kernel(), "score_rows' speed over the padded twin's");
}

} // namespace lesson08::testing
