#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson06 {
namespace {

/// One tile, one half per shared access: transpose_half's kernel, and the path of the tiles
/// transpose_half2 cannot move in pairs. Phase 1: warp y copies input row row0 + y into
/// tile row y. Phase 2: warp y reads tile column y and writes it as output row col0 + y.
__device__ __forceinline__ void move_tile_by_halves(__half* tile, const __half* in, __half* out,
                                                    int rows, int cols, int row0, int col0) {
  const int x = static_cast<int>(threadIdx.x);
  const int tile_rows = tile_extent(row0, rows);
  const int tile_cols = tile_extent(col0, cols);
  if (tile_rows == kTileDim && tile_cols == kTileDim) {
    // An interior tile: constant trip counts, so the loads of a thread are in flight together.
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockRows) {
      const int y = static_cast<int>(threadIdx.y) + k;
      tile[half_slot(y, x)] = in[matrix_index(row0 + y, col0 + x, cols)]; // a row: 16 words
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockRows) {
      const int y = static_cast<int>(threadIdx.y) + k;
      out[matrix_index(col0 + y, row0 + x, rows)] = tile[half_slot(x, y)]; // a column
    }
  } else {
    // A ragged tile: warps skip the rows that do not exist (a bound all lanes share), lanes
    // past the edge sit out.
    for (int y = static_cast<int>(threadIdx.y); y < tile_rows; y += kBlockRows) {
      if (x < tile_cols) {
        tile[half_slot(y, x)] = in[matrix_index(row0 + y, col0 + x, cols)];
      }
    }
    __syncthreads();
    for (int y = static_cast<int>(threadIdx.y); y < tile_cols; y += kBlockRows) {
      if (x < tile_rows) {
        out[matrix_index(col0 + y, row0 + x, rows)] = tile[half_slot(x, y)];
      }
    }
  }
}

__global__ void __launch_bounds__(kBlockThreads)
    transpose_half_kernel(const __half* in, __half* out, int rows, int cols) {
  __shared__ __align__(4) __half tile[kTileDim * kHalfPitch];
  move_tile_by_halves(tile, in, out, rows, cols, static_cast<int>(blockIdx.y) * kTileDim,
                      static_cast<int>(blockIdx.x) * kTileDim);
}

/// transpose_half2's kernel.
///
/// TODO (Part 3): this starter moves every tile one half per access, like transpose_half.
/// Move the full tiles (when pairs_fit(rows, cols)) in pairs instead, through the same tile:
///   phase 1: thread (lane, w) loads its 2 x 2 block (block_row_pair, block_col_pair) as two
///            __half2 from global memory (rows 2 i and 2 i + 1), swaps the diagonal in
///            registers (__lows2half2, __highs2half2) and stores the two column pairs at
///            pair_slot(2 j, i) and pair_slot(2 j + 1, i);
///   wait for the whole block;
///   phase 2: for k = 0 .. kPairSteps - 1, loads the pair at pair_slot(out_row(w, k, lane),
///            out_pair(lane)) and stores it, as one __half2, to the output.
/// A __half2 access needs a 4-byte aligned address: reinterpret_cast<__half2*> on a __half
/// pointer whose half index is even. Keep ragged tiles and odd shapes on the scalar path.
__global__ void __launch_bounds__(kBlockThreads)
    transpose_half2_kernel(const __half* in, __half* out, int rows, int cols) {
  __shared__ __align__(4) __half tile[kTileDim * kHalfPitch];
  move_tile_by_halves(tile, in, out, rows, cols, static_cast<int>(blockIdx.y) * kTileDim,
                      static_cast<int>(blockIdx.x) * kTileDim);
}

template <class Kernel>
void launch(Kernel kernel, const __half* in, __half* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  kernel<<<tile_grid(rows, cols), tile_block(), 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

} // namespace

void transpose_half(const __half* in, __half* out, int rows, int cols, cudaStream_t stream) {
  launch(transpose_half_kernel, in, out, rows, cols, stream);
}

void transpose_half2(const __half* in, __half* out, int rows, int cols, cudaStream_t stream) {
  launch(transpose_half2_kernel, in, out, rows, cols, stream);
}

} // namespace lesson06
