/// @file lessons/08_xor_swizzle/internal.cuh
/// @brief Lesson 08's plumbing: the global-memory side of score_rows (the next tile's loads,
/// issued early), the launches, and the ldmatrix microbenchmark of the demos. You do not need
/// to read or edit this file.
#pragma once

#include <demo.hpp>

#include "kit/cuda_check.hpp"

namespace lesson08::internal {

/// One lane's share of a tile in registers: the pair (staged_row, 2 staged_pair + {0, 1}) of
/// the matrix tile at column col0, and its query's feature `lane` of those columns (zeros
/// outside the matrix). fetch() issues the next tile's global loads before the current tile
/// is read, so their latency hides behind the shared-memory work.
struct TilePrefetch {
  const float* __restrict__ rows;
  const float* __restrict__ queries;
  int n_rows, n_cols, query, lane;
  long row0;     ///< First matrix row of the block.
  float2 pair;   ///< Elements (r, 2 p) and (r, 2 p + 1) of the tile, in order.
  float feature; ///< Feature `lane` of the tile's columns for `query`.

  __device__ void fetch(int col0) {
    const long row = row0 + staged_row(query, lane);
    const int col = col0 + kPairFloats * staged_pair(lane);
    pair = make_float2(0.0f, 0.0f);
    if (row < n_rows) {
      const float* p = rows + row * n_cols + col;
      if (n_cols % 2 == 0 && col < n_cols) {
        pair = *reinterpret_cast<const float2*>(p); // even rows: one 8-byte load
      } else {
        pair.x = col < n_cols ? p[0] : 0.0f;
        pair.y = col + 1 < n_cols ? p[1] : 0.0f;
      }
    }
    feature =
        col0 + lane < n_cols ? queries[static_cast<long>(query) * n_cols + col0 + lane] : 0.0f;
  }
};

/// Writes lane `lane`'s score of the block's row lane (rows past n_rows are not written).
__device__ inline void store_score(float score, float* scores, int n_rows, long row0, int query,
                                   int lane) {
  const long row = row0 + lane;
  if (row < n_rows) {
    scores[static_cast<long>(query) * n_rows + row] = score;
  }
}

/// Launches `kernel` over the rows: one block per kTileDim rows; nothing for no rows.
template <class Kernel>
void launch(Kernel kernel, const float* rows, int n_rows, int n_cols, const float* queries,
            float* scores, cudaStream_t stream) {
  if (n_rows <= 0) {
    return;
  }
  const int blocks = (n_rows + kTileDim - 1) / kTileDim;
  kernel<<<blocks, kBlockThreads, 0, stream>>>(rows, n_rows, n_cols, queries, scores);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson08::internal
