#include <demo.hpp>

#include "internal.cuh"
#include "kit/matrix.hpp"

namespace lesson05 {
namespace {

/// The demos without shared memory: thread (x, y) of the block moves tile rows y,
/// y + kBlockWarps, ... at tile column x, straight from input (r, c) to output (r, c) (the
/// copy) or (c, r) (the naive transpose). Reads: a warp takes 32 consecutive floats of row r
/// (coalesced). Writes: the same row for the copy; down column r of the output, one output row
/// (`rows` floats) apart, for the transpose. The loop has a constant trip count, so it unrolls
/// and each thread's kElementsPerThread loads are in flight together.
template <bool Transpose>
__global__ void __launch_bounds__(kBlockThreads)
    direct_kernel(const float* in, float* out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
#pragma unroll
  for (int k = 0; k < kTileDim; k += kBlockWarps) {
    const int r = row0 + static_cast<int>(threadIdx.y) + k;
    if (r < rows && c < cols) {
      const std::size_t to =
          Transpose ? kit::matrix_index(c, r, rows) : kit::matrix_index(r, c, cols);
      out[to] = in[kit::matrix_index(r, c, cols)];
    }
  }
}

} // namespace

void copy_matrix(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(direct_kernel<false>, in, out, rows, cols, stream);
}

void transpose_naive(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  internal::launch(direct_kernel<true>, in, out, rows, cols, stream);
}

} // namespace lesson05
