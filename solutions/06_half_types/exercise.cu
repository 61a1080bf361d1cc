// Lesson 06, Part 3, reference solution: transpose_half2's kernel.
#include <exercise.hpp>

#include "internal.cuh"
#include "kit/matrix.hpp"

namespace lesson06 {
namespace {

/// transpose_half2's kernel: a tile that moves_by_halves() takes transpose_half's path; every
/// other tile goes in pairs through the half tile.
__global__ void __launch_bounds__(kBlockThreads)
    transpose_half2_kernel(const __half* in, __half* out, int rows, int cols) {
  KIT_SHARED kit::SharedTile<HalfTileLayout> tile;          // element (r, c) is tile(r, c)
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim; // first input row of the tile
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim; // first input column
  if (moves_by_halves(rows, cols, row0, col0)) {
    internal::move_tile_by_halves<HalfTileLayout>(tile, in, out, rows, cols, row0, col0);
    return;
  }
  const int lane = static_cast<int>(threadIdx.x);
  const int w = static_cast<int>(threadIdx.y);

  // Phase 1: a 2 x 2 block per thread, two pairs in, its diagonal swapped in registers, two
  // column pairs out. Tile row c then holds input column c: output row col0 + c.
  const int i = block_row_pair(w, lane);
  const int j = block_col_pair(lane);
  const __half2 top = internal::load_pair(in + kit::matrix_index(row0 + 2 * i, col0 + 2 * j, cols));
  const __half2 bottom =
      internal::load_pair(in + kit::matrix_index(row0 + 2 * i + 1, col0 + 2 * j, cols));
  tile.as<__half2>(2 * j, 2 * i) = __lows2half2(top, bottom);      // column 2j
  tile.as<__half2>(2 * j + 1, 2 * i) = __highs2half2(top, bottom); // column 2j + 1
  __syncthreads();

  // Phase 2: the pair at columns 2p, 2p + 1 of tile row c is output columns row0 + 2p and
  // row0 + 2p + 1 of output row col0 + c.
#pragma unroll
  for (int k = 0; k < kPairSteps; ++k) {
    const int c = out_row(w, k, lane);
    const int p = out_pair(lane);
    internal::store_pair(out + kit::matrix_index(col0 + c, row0 + 2 * p, rows),
                         tile.as<__half2>(c, 2 * p));
  }
}

} // namespace

void transpose_half2(const __half* in, __half* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(transpose_half2_kernel, in, out, rows, cols, stream);
}

} // namespace lesson06
