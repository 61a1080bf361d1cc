#include <demo.hpp>

#include "internal.cuh"
#include "kit/matrix.hpp"

namespace lesson05 {
namespace {

// Both demos walk the tile like the exercise's kernels do: thread (x, y) of the block takes
// tile rows y, y + kBlockWarps, ... at tile column x. The loop has a constant trip count, so
// it unrolls and each thread's kElementsPerThread loads are in flight together.

__global__ void __launch_bounds__(kBlockThreads)
    copy_kernel(const float* in, float* out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockWarps) {
    const int r = row0 + static_cast<int>(threadIdx.y) + k;
    if (r < rows && c < cols) {
      out[kit::matrix_index(r, c, cols)] = in[kit::matrix_index(r, c, cols)]; // one row, 128 B
    }
  }
}

__global__ void __launch_bounds__(kBlockThreads)
    transpose_naive_kernel(const float* in, float* out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockWarps) {
    const int r = row0 + static_cast<int>(threadIdx.y) + k;
    if (r < rows && c < cols) {
      // Read: lanes take consecutive columns of row r (coalesced). Write: lanes go down
      // column r of the output, one output row (rows floats) apart.
      out[kit::matrix_index(c, r, rows)] = in[kit::matrix_index(r, c, cols)];
    }
  }
}

} // namespace

void copy_matrix(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(copy_kernel, in, out, rows, cols, stream);
}

void transpose_naive(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(transpose_naive_kernel, in, out, rows, cols, stream);
}

} // namespace lesson05
