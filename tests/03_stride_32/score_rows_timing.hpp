// score_rows timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <demo.hpp>

#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"
#include "twin.hpp"

namespace lesson03::testing {

/// Times score_rows against score_rows_twin on 8 full waves of blocks of this GPU, 8 column
/// tiles each, and expects the ratio in the band around the model's ratio of their traces.
inline void expect_slowdown_against_twin() {
  families::score_rows::testing::expect_slowdown<ScoreRows, Traces>(
      {"score_rows", score_rows_kernel(), score_rows},
      {"score_rows_twin", score_rows_twin_kernel(), score_rows_twin});
}

} // namespace lesson03::testing
