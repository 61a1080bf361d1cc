#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson05 {
namespace {

/// One tile of the transpose, staged through shared memory whose rows are `Pitch` floats
/// apart. Phase 1: warp y reads input row row0 + y (coalesced) into tile row y. Phase 2:
/// warp y reads tile column y and writes it as output row col0 + y (coalesced).
template <int Pitch>
__global__ void __launch_bounds__(kBlockThreads)
    transpose_tile_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTileDim * Pitch];
  const int x = static_cast<int>(threadIdx.x);              // the lane
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim; // first input row of the tile
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim; // first input column
  const int tile_rows = tile_extent(row0, rows);
  const int tile_cols = tile_extent(col0, cols);

  if (tile_rows == kTileDim && tile_cols == kTileDim) {
    // An interior tile. The loops have a constant trip count: they unroll, and each thread
    // has its kElementsPerThread loads in flight at once.
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockRows) {
      const int y = static_cast<int>(threadIdx.y) + k;
      tile[store_slot<Pitch>(x, y)] = in[matrix_index(row0 + y, col0 + x, cols)];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockRows) {
      const int y = static_cast<int>(threadIdx.y) + k;
      out[matrix_index(col0 + y, row0 + x, rows)] = tile[load_slot<Pitch>(x, y)];
    }
  } else {
    // A ragged tile on the right or bottom edge. The loop bound is the same for the 32
    // lanes of a warp, so a warp whose tile row does not exist skips it entirely; lanes past
    // the last column sit out of the access (the model's inactive lanes).
    for (int y = static_cast<int>(threadIdx.y); y < tile_rows; y += kBlockRows) {
      if (x < tile_cols) {
        tile[store_slot<Pitch>(x, y)] = in[matrix_index(row0 + y, col0 + x, cols)];
      }
    }
    __syncthreads();
    for (int y = static_cast<int>(threadIdx.y); y < tile_cols; y += kBlockRows) {
      if (x < tile_rows) {
        out[matrix_index(col0 + y, row0 + x, rows)] = tile[load_slot<Pitch>(x, y)];
      }
    }
  }
}

template <int Pitch>
void launch(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  transpose_tile_kernel<Pitch>
      <<<tile_grid(rows, cols), tile_block(), 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

} // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch<kTiledPitch>(in, out, rows, cols, stream);
}

void transpose_padded(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch<kPaddedPitch>(in, out, rows, cols, stream);
}

} // namespace lesson05
