/// @file lessons/07_wide_accesses/internal.cuh
/// @brief Lesson 07's plumbing: the global-memory side of score_rows4 (the next tile's loads,
/// issued early), the alignment check and the launch. You do not need to read or edit this
/// file.
#pragma once

#include <stdexcept>
#include <string>

#include <demo.hpp>

#include "kit/cuda_check.hpp"

namespace lesson07::internal {

/// One warp's share of a tile in registers: its kTileRowsPerWarp tile rows at lane `lane`'s
/// column, and its query's feature of that column (zeros outside the matrix). fetch() issues
/// the next tile's global loads before the current tile is read, so their latency hides
/// behind the shared-memory work and the kernel's time is its shared-memory time.
struct TilePrefetch {
  const float* __restrict__ rows;
  const float* __restrict__ queries;
  int n_rows, n_cols, query, lane;
  long row0;                         ///< First matrix row of the block.
  float row_value[kTileRowsPerWarp]; ///< Element (staged_row(query, i), lane) of the tile.
  float feature;                     ///< Feature `lane` of the tile's columns for `query`.

  __device__ void fetch(int col0) {
    const int col = col0 + lane;
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      const long row = row0 + staged_row(query, i);
      row_value[i] = row < n_rows && col < n_cols ? rows[row * n_cols + col] : 0.0f;
    }
    feature = col < n_cols ? queries[static_cast<long>(query) * n_cols + col] : 0.0f;
  }
};

/// Writes lane `lane`'s scores of the block's rows (rows past n_rows are not written).
__device__ inline void store_scores(const float (&score)[kRowsPerLane], float* scores, int n_rows,
                                    long row0, int query, int lane) {
#pragma unroll
  for (int h = 0; h < kRowsPerLane; ++h) {
    const long row = row0 + scored_row(lane, h);
    if (row < n_rows) {
      scores[static_cast<long>(query) * n_rows + row] = score[h];
    }
  }
}

/// Throws std::invalid_argument when a wide load of layout `Tile` is not 16-byte aligned:
/// on the GPU it would stop the kernel with a misaligned-address error and lose the context.
template <class Tile>
void require_aligned(const char* kernel) {
  constexpr int row = first_misaligned_row<Tile>();
  if (row >= 0) {
    throw std::invalid_argument(
        std::string(kernel) + " not launched: the float4 loads of tile row " + std::to_string(row) +
        " start at float " + std::to_string(Tile{}(row, 0)) +
        ", not a multiple of 4 (16 bytes): a misaligned shared access faults on the GPU");
  }
}

/// Launches `kernel` over the rows: one block per kTileRows rows; nothing for no rows.
template <class Kernel>
void launch(Kernel kernel, const float* rows, int n_rows, int n_cols, const float* queries,
            float* scores, cudaStream_t stream) {
  if (n_rows <= 0) {
    return;
  }
  const int blocks = (n_rows + kTileRows - 1) / kTileRows;
  kernel<<<blocks, kBlockThreads, 0, stream>>>(rows, n_rows, n_cols, queries, scores);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson07::internal
