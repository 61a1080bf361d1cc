// score_rows4 timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <cstddef>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "kit/testing_score_rows.hpp"
#include "score_rows4_trace.hpp"

namespace lesson07::testing {

/// Times score_rows4 against score_rows4_twin on 8 full waves of blocks of this GPU, 8 column
/// tiles each, and expects the ratio in the band around `model_ratio` (the model's ratio of
/// their traces, or 1 where the student's kernel must match the twin).
inline void expect_slowdown_against_twin(double model_ratio) {
  constexpr int kWaves = 8;
  constexpr int kColumnTiles = 8;
  const int n_rows =
      kit::saturating_blocks(score_rows4_twin_kernel(), kBlockThreads, 0) * kTileRows * kWaves;
  kit::testing::ScoreRowsProblem p(n_rows, kTileDim * kColumnTiles, kQueries);
  // Static shared memory only: kSharedFloats floats in both kernels.
  KIT_EXPECT_SLOWDOWN(p.launch("score_rows4", score_rows4_kernel(), kBlockThreads,
                               [](auto... args) { score_rows4(args...); }),
                      p.launch("score_rows4_twin", score_rows4_twin_kernel(), kBlockThreads,
                               [](auto... args) { score_rows4_twin(args...); }),
                      model_ratio);
}

} // namespace lesson07::testing
