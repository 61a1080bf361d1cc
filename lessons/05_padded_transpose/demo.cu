#include <demo.hpp>

#include "kit/cuda_check.hpp"

namespace lesson05 {
namespace {

// Both demos walk the tile like the exercise's kernels do: thread (x, y) of the block takes
// tile rows y, y + kBlockRows, ... at tile column x. The loop has a constant trip count, so
// it unrolls and each thread's kElementsPerThread loads are in flight together.

__global__ void __launch_bounds__(kBlockThreads)
    copy_kernel(const float* in, float* out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockRows) {
    const int r = row0 + static_cast<int>(threadIdx.y) + k;
    if (r < rows && c < cols) {
      out[matrix_index(r, c, cols)] = in[matrix_index(r, c, cols)]; // warp: one row, 128 B
    }
  }
}

__global__ void __launch_bounds__(kBlockThreads)
    transpose_naive_kernel(const float* in, float* out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockRows) {
    const int r = row0 + static_cast<int>(threadIdx.y) + k;
    if (r < rows && c < cols) {
      // Read: lanes take consecutive columns of row r (coalesced). Write: lanes go down
      // column r of the output, one output row (rows floats) apart.
      out[matrix_index(c, r, rows)] = in[matrix_index(r, c, cols)];
    }
  }
}

template <class Kernel>
void launch(Kernel kernel, const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  kernel<<<tile_grid(rows, cols), tile_block(), 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

} // namespace

void copy_matrix(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch(copy_kernel, in, out, rows, cols, stream);
}

void transpose_naive(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch(transpose_naive_kernel, in, out, rows, cols, stream);
}

} // namespace lesson05
