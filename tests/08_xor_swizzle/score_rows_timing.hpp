// score_rows timed against its padded twin in one saturating run (GPU tests only).
#pragma once

#include <cstddef>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows_trace.hpp"

namespace lesson08::testing {

/// Times score_rows against score_rows_twin on 8 full waves of blocks of this GPU, 8 column
/// tiles each, and expects the ratio in the band around the model's ratio of their traces.
inline void expect_slowdown_against_twin() {
  constexpr int kWaves = 8;
  constexpr int kColumnTiles = 8;
  const int n_rows =
      kit::saturating_blocks(score_rows_twin_kernel(), kBlockThreads, 0) * kTileDim * kWaves;
  const int n_cols = kTileDim * kColumnTiles;
  kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(n_rows) * n_cols);
  kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(kQueries) * n_cols);
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(kQueries) * n_rows);
  d_rows.fill_bytes(0);
  d_queries.fill_bytes(0);
  // Static shared memory only: kSharedFloats floats in both kernels.
  const kit::Launch a{"score_rows", score_rows_kernel(), kBlockThreads, 0, [&](cudaStream_t s) {
                        score_rows(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get(),
                                   s);
                      }};
  const kit::Launch b{"score_rows_twin (pitch 34)", score_rows_twin_kernel(), kBlockThreads, 0,
                      [&](cudaStream_t s) {
                        score_rows_twin(d_rows.get(), n_rows, n_cols, d_queries.get(),
                                        d_scores.get(), s);
                      }};
  KIT_EXPECT_SLOWDOWN(a, b, model_ratio(n_rows, n_cols));
}

} // namespace lesson08::testing
