#include <demo.hpp>

#include "internal.cuh"
#include "kit/matrix.hpp"

namespace lesson05 {
namespace {

/// The demos without shared memory: thread (x, y) of the block moves tile rows y,
/// y + kBlockWarps, ... at tile column x, straight from input (r, c) to output (r, c) (the
/// copy) or (c, r) (the naive transpose). Reads: a warp takes 32 consecutive floats of row r
/// (coalesced). Writes: the same row for the copy; down column r of the output, one output row
/// (`rows` floats) apart, for the transpose. Like the tiled kernels, a thread issues all its
/// kElementsPerThread loads before its first store, so they are in flight together.
template <bool Transpose>
__global__ void __launch_bounds__(kBlockThreads)
    direct_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  const int c = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim + static_cast<int>(threadIdx.y);
  float value[kElementsPerThread];
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    const int r = row0 + i * kBlockWarps;
    value[i] = r < rows && c < cols ? in[kit::matrix_index(r, c, cols)] : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < kElementsPerThread; ++i) {
    const int r = row0 + i * kBlockWarps;
    if (r < rows && c < cols) {
      out[Transpose ? kit::matrix_index(c, r, rows) : kit::matrix_index(r, c, cols)] = value[i];
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
