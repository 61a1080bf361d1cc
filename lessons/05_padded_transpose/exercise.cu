#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson05 {
namespace {

/// One tile of the transpose. The block is kTileDim x kBlockRows threads (demo.hpp); thread
/// (x, y) handles tile rows y, y + kBlockRows, ... at lane x.
///
/// TODO: this starter is the naive transpose: it never touches shared memory, so its writes
/// go down output columns, one output row apart. Stage the tile instead:
///   1. declare the tile: `__shared__ float tile[kTileDim * Pitch];`
///   2. phase 1: each warp copies input rows of the tile into tile rows, at store_slot;
///   3. wait until the whole tile is in (every thread of the block);
///   4. phase 2: each warp reads a tile column, at load_slot, and writes it as a row of the
///      output (output element (col0 + y, row0 + x)).
/// Ragged edges: only tile_extent(row0, rows) rows and tile_extent(col0, cols) columns of a
/// tile exist. Let whole warps skip rows that do not exist (a loop bound all 32 lanes share)
/// and let lanes past the edge sit out with an `if`.
template <int Pitch>
__global__ void __launch_bounds__(kBlockThreads)
    transpose_tile_kernel(const float* in, float* out, int rows, int cols) {
  const int x = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockRows) {
    const int y = static_cast<int>(threadIdx.y) + k;
    if (row0 + y < rows && col0 + x < cols) {
      out[matrix_index(col0 + x, row0 + y, rows)] = in[matrix_index(row0 + y, col0 + x, cols)];
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
