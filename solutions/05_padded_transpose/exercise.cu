#include <exercise.hpp>

#include "internal.cuh"

namespace lesson05 {
namespace {

/// One tile of the transpose, staged through a shared tile in layout `Tile`. Phase 1: warp y
/// reads input row row0 + y (coalesced) into tile row y. Phase 2: warp y reads tile column y
/// and writes it as output row col0 + y (coalesced).
template <class Tile>
__global__ void __launch_bounds__(kBlockThreads)
    transpose_tile_kernel(const float* in, float* out, int rows, int cols) {
  KIT_SHARED kit::SharedTile<Tile> tile; // element (r, c) is tile(r, c), at offset Tile{}(r, c)
  const int x = static_cast<int>(threadIdx.x);              // the lane
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim; // first input row of the tile
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim; // first input column
  const int tile_rows = tile_extent(row0, rows);
  const int tile_cols = tile_extent(col0, cols);
  const auto stage = [&](int y) { // phase 1 of thread (x, y): one input element into the tile
    const kit::Coord e = store_coord(x, y);
    tile(e.row, e.col) = in[kit::matrix_index(row0 + y, col0 + x, cols)];
  };
  const auto write_out = [&](int y) { // phase 2 of thread (x, y): one tile element out
    const kit::Coord e = load_coord(x, y);
    out[kit::matrix_index(col0 + y, row0 + x, rows)] = tile(e.row, e.col);
  };

  if (tile_rows == kTileDim && tile_cols == kTileDim) {
    // An interior tile. The loops have a constant trip count: they unroll, and each thread
    // has its kElementsPerThread loads in flight at once.
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockWarps) {
      stage(static_cast<int>(threadIdx.y) + k);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kTileDim; k += kBlockWarps) {
      write_out(static_cast<int>(threadIdx.y) + k);
    }
  } else {
    // A ragged tile on the right or bottom edge. The loop bound is the same for the 32
    // lanes of a warp, so a warp whose tile row does not exist skips it entirely; lanes past
    // the last column sit out of the access (the model's inactive lanes).
    for (int y = static_cast<int>(threadIdx.y); y < tile_rows; y += kBlockWarps) {
      if (x < tile_cols) {
        stage(y);
      }
    }
    __syncthreads();
    for (int y = static_cast<int>(threadIdx.y); y < tile_cols; y += kBlockWarps) {
      if (x < tile_rows) {
        write_out(y);
      }
    }
  }
}

} // namespace

void transpose_tiled(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(transpose_tile_kernel<TiledLayout>, in, out, rows, cols, stream);
}

void transpose_padded(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(transpose_tile_kernel<PaddedLayout>, in, out, rows, cols, stream);
}

} // namespace lesson05
