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

/// A 4-byte load of two halves (p must be 4-byte aligned).
__device__ __forceinline__ __half2 load_pair(const __half* p) {
  return *reinterpret_cast<const __half2*>(p);
}

/// A 4-byte store of two halves (p must be 4-byte aligned).
__device__ __forceinline__ void store_pair(__half* p, __half2 v) {
  *reinterpret_cast<__half2*>(p) = v;
}

__global__ void __launch_bounds__(kBlockThreads)
    transpose_half2_kernel(const __half* in, __half* out, int rows, int cols) {
  __shared__ __align__(4) __half tile[kTileDim * kHalfPitch];
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim;
  if (tile_extent(row0, rows) < kTileDim || tile_extent(col0, cols) < kTileDim ||
      !pairs_fit(rows, cols)) {
    move_tile_by_halves(tile, in, out, rows, cols, row0, col0);
    return;
  }
  const int lane = static_cast<int>(threadIdx.x);
  const int w = static_cast<int>(threadIdx.y);

  // Phase 1: a 2 x 2 block per thread, two pairs in, its diagonal swapped in registers,
  // two column pairs out.
  const int i = block_row_pair(w, lane);
  const int j = block_col_pair(lane);
  const __half2 top = load_pair(in + matrix_index(row0 + 2 * i, col0 + 2 * j, cols));        // a b
  const __half2 bottom = load_pair(in + matrix_index(row0 + 2 * i + 1, col0 + 2 * j, cols)); // c d
  store_pair(tile + pair_slot(2 * j, i), __lows2half2(top, bottom));      // a c: column 2j
  store_pair(tile + pair_slot(2 * j + 1, i), __highs2half2(top, bottom)); // b d: column 2j + 1
  __syncthreads();

  // Phase 2: tile row c is output row col0 + c; pair p of it is output columns row0 + 2p,
  // row0 + 2p + 1.
#pragma unroll
  for (int k = 0; k < kPairSteps; ++k) {
    const int c = out_row(w, k, lane);
    const int p = out_pair(lane);
    store_pair(out + matrix_index(col0 + c, row0 + 2 * p, rows), load_pair(tile + pair_slot(c, p)));
  }
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
