// Lesson 06, Part 3: transpose_half2's kernel. Edit the pair path of a full tile.
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
  // TODO (Part 3): this moves the full tile one half per access too. Move it in pairs:
  //   phase 1: lane `lane` of warp `w` loads its 2 x 2 block (i = block_row_pair(w, lane),
  //            j = block_col_pair(lane)) as two __half2, input rows 2 i and 2 i + 1 from
  //            column 2 j; swaps the diagonal in registers (__lows2half2, __highs2half2);
  //            stores column 2 j of the block at tile element (2 j, 2 i), column 2 j + 1 at
  //            (2 j + 1, 2 i);
  //   wait for the whole block;
  //   phase 2: for k < kPairSteps, copies the pair at tile element
  //            (out_row(w, k, lane), 2 out_pair(lane)) to the output as one __half2.
  // internal::load_pair(p) and internal::store_pair(p, v) are one 4-byte access of global
  // memory each; tile.as<__half2>(r, c) is the pair of tile elements (r, c) and (r, c + 1), one
  // 4-byte shared access (read it, or assign to it).
  internal::move_tile_by_halves<HalfTileLayout>(tile, in, out, rows, cols, row0, col0);
}

} // namespace

void transpose_half2(const __half* in, __half* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(transpose_half2_kernel, in, out, rows, cols, stream);
}

} // namespace lesson06
