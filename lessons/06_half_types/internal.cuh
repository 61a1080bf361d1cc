/// @file lessons/06_half_types/internal.cuh
/// @brief Lesson 06's plumbing: the scalar path of a tile (transpose_half's whole kernel, and
/// the tiles transpose_half2 does not move in pairs), the pair accessors of global memory and
/// the launch (on the GPU with nvcc; on the CPU, recorded and checked, with the host
/// compiler). You do not need to read or edit this file: the README shows the scalar path.
#pragma once

#include <cuda_fp16.h>

#include <demo.hpp>

#include "kit/launch.hpp"
#include "kit/matrix.hpp"
#include "kit/shared_tile.hpp"

namespace lesson06::internal {

// [move_tile_by_halves]
/// One tile, one half per shared access, through `tile` in layout `Tile`. Phase 1: warp y
/// copies input row row0 + y into tile row y. Phase 2: warp y reads tile column y and writes
/// it as output row col0 + y.
template <class Tile>
__device__ __forceinline__ void move_tile_by_halves(kit::SharedTile<Tile>& tile, const __half* in,
                                                    __half* out, int rows, int cols, int row0,
                                                    int col0) {
  static_assert(holds_the_tile<Tile>());
  const int x = static_cast<int>(threadIdx.x);
  const int tile_rows = tile_extent(row0, rows);
  const int tile_cols = tile_extent(col0, cols);
  if (tile_rows == kTileDim && tile_cols == kTileDim) {
    // A full tile: constant trip counts, so the loads of a thread are in flight together.
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockRows) {
      const int y = static_cast<int>(threadIdx.y) + k;
      tile(y, x) = in[kit::matrix_index(row0 + y, col0 + x, cols)]; // a tile row
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockRows) {
      const int y = static_cast<int>(threadIdx.y) + k;
      out[kit::matrix_index(col0 + y, row0 + x, rows)] = tile(x, y); // a tile column
    }
  } else {
    // A ragged tile: warps skip the rows that do not exist (a bound all lanes share), lanes
    // past the edge sit out.
    for (int y = static_cast<int>(threadIdx.y); y < tile_rows; y += kBlockRows) {
      if (x < tile_cols) {
        tile(y, x) = in[kit::matrix_index(row0 + y, col0 + x, cols)];
      }
    }
    __syncthreads();
    for (int y = static_cast<int>(threadIdx.y); y < tile_cols; y += kBlockRows) {
      if (x < tile_rows) {
        out[kit::matrix_index(col0 + y, row0 + x, rows)] = tile(x, y);
      }
    }
  }
}
// [move_tile_by_halves]

/// One 4-byte load of two halves of global memory: `p` must be 4-byte aligned (an even element
/// of a matrix whose sides are even).
__device__ __forceinline__ __half2 load_pair(const __half* p) {
  return *reinterpret_cast<const __half2*>(p);
}

/// One 4-byte store of two halves to global memory: `p` must be 4-byte aligned.
__device__ __forceinline__ void store_pair(__half* p, __half2 v) {
  *reinterpret_cast<__half2*>(p) = v;
}

/// Launches `kernel` with one block of kTileDim x kBlockRows threads per tile of the
/// rows x cols input; nothing for an empty matrix.
template <class Kernel>
void launch(Kernel kernel, const __half* in, __half* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  kit::launch(kernel, kit::tile_grid(rows, cols, kTileDim), dim3(kTileDim, kBlockRows), stream, in,
              out, rows, cols);
}

} // namespace lesson06::internal
