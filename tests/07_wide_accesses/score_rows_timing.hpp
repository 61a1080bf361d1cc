// score_rows4 timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <demo.hpp>

#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"
#include "twin.hpp"

namespace lesson07::testing {

/// Times score_rows4 against score_rows4_twin on 8 full waves of blocks of this GPU, 8 column
/// tiles each, and expects the ratio in the band around `model_ratio` (the model's ratio of
/// their traces, or 1 where the student's kernel must match the twin).
inline void expect_slowdown_against_twin(double model_ratio) {
  families::score_rows::testing::expect_slowdown<ScoreRows>(
      {"score_rows4", score_rows4_kernel(), score_rows4},
      {"score_rows4_twin", score_rows4_twin_kernel(), score_rows4_twin},
      [model_ratio](int, int) { return model_ratio; });
}

} // namespace lesson07::testing
