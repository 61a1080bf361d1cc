// score_rows4 timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <demo.hpp>

#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"
#include "twin.hpp"

namespace lesson07::testing {

/// Times score_rows4 against score_rows4_twin on 8 full waves of blocks of this GPU, 8 column
/// tiles each, and expects the ratio in the band around the model's ratio of their traces;
/// where the kernels' times miss it, one tile of their shared-memory accesses replayed alone
/// decides (families/score_rows/testing.hpp).
inline void expect_slowdown_against_twin() {
  families::score_rows::testing::expect_slowdown<ScoreRows, Traces>(
      {"score_rows4", score_rows4_kernel(), score_rows4},
      {"score_rows4_twin", score_rows4_twin_kernel(), score_rows4_twin});
}

} // namespace lesson07::testing
