// score_rows timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <cstddef>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "kit/testing_score_rows.hpp"
#include "score_rows_trace.hpp"

namespace lesson03::testing {

/// Times score_rows against score_rows_twin on 8 full waves of blocks of this GPU, 8 column
/// tiles each, and expects the ratio in the band around the model's ratio of their traces.
inline void expect_slowdown_against_twin() {
  constexpr int kWaves = 8;
  constexpr int kColumnTiles = 8;
  const int n_rows =
      kit::saturating_blocks(score_rows_twin_kernel(), kBlockThreads, 0) * kTileRows * kWaves;
  kit::testing::ScoreRowsProblem p(n_rows, kTileDim * kColumnTiles, kQueries);
  // Static shared memory only: kSharedFloats floats in both kernels.
  KIT_EXPECT_SLOWDOWN(p.launch("score_rows", score_rows_kernel(), kBlockThreads,
                               [](auto... args) { score_rows(args...); }),
                      p.launch("score_rows_twin", score_rows_twin_kernel(), kBlockThreads,
                               [](auto... args) { score_rows_twin(args...); }),
                      model_ratio(p.n_rows, p.n_cols));
}

} // namespace lesson03::testing
