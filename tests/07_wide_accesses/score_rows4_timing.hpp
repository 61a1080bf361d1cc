// score_rows4 timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <cstddef>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
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
  const int n_cols = kTileDim * kColumnTiles;
  kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(n_rows) * n_cols);
  kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(kQueries) * n_cols);
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(kQueries) * n_rows);
  d_rows.fill_bytes(0);
  d_queries.fill_bytes(0);
  // Static shared memory only: kSharedFloats floats in both kernels.
  const kit::Launch a{"score_rows4", score_rows4_kernel(), kBlockThreads, 0, [&](cudaStream_t s) {
                        score_rows4(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get(),
                                    s);
                      }};
  const kit::Launch b{
      "score_rows4_twin", score_rows4_twin_kernel(), kBlockThreads, 0, [&](cudaStream_t s) {
        score_rows4_twin(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get(), s);
      }};
  KIT_EXPECT_SLOWDOWN(a, b, model_ratio);
}

} // namespace lesson07::testing
