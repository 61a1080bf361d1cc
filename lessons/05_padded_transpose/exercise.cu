#include <exercise.hpp>

#include "internal.cuh"

namespace lesson05 {
namespace {

/// Part 3: one tile of the transpose, staged through a shared tile in layout `Tile`. Thread
/// (x, y) is lane x of warp y and takes tile rows y, y + kBlockWarps, ...
/// TODO: this starter is the naive transpose (no shared memory: its writes go down output
/// columns). Declare the tile as `KIT_SHARED kit::SharedTile<Tile> tile;` (element (r, c) is
/// `tile(r, c)`, kit/shared_tile.hpp); phase 1: put input element (row0 + y, col0 + x) at
/// store_coord(x, y); wait for the whole block; phase 2: write output element
/// (col0 + y, row0 + x) from load_coord(x, y). Only tile_extent(row0, rows) rows and
/// tile_extent(col0, cols) columns of a tile exist: let whole warps skip rows that do not (a
/// loop bound the 32 lanes share), and lanes past the edge sit out with an `if`.
template <class Tile>
__global__ void __launch_bounds__(kBlockThreads)
    transpose_tile_kernel(const float* in, float* out, int rows, int cols) {
  const int x = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockWarps) {
    const int y = static_cast<int>(threadIdx.y) + k;
    if (row0 + y < rows && col0 + x < cols) {
      out[kit::matrix_index(col0 + x, row0 + y, rows)] =
          in[kit::matrix_index(row0 + y, col0 + x, cols)];
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
