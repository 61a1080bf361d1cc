#include <demo.hpp>
#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson01 {
namespace {

/// Whether every offset stage_offset gives lies inside the kBlockThreads floats of `stage`.
constexpr bool stage_offsets_fit() {
  for (int t = 0; t < kBlockThreads; ++t) {
    if (stage_offset(t) < 0 || stage_offset(t) >= kBlockThreads) {
      return false;
    }
  }
  return true;
}
static_assert(stage_offsets_fit(), "stage_offset(t) must lie in 0..kBlockThreads-1");

// [reverse_blocks]
/// Reverses block blockIdx.x of `in` into `out` through the shared buffer `stage`, laid out
/// by your stage_offset; every warp issues one 4-byte shared store and one 4-byte shared load.
__global__ void reverse_blocks_kernel(const float* in, float* out, int n) {
  __shared__ float stage[kBlockThreads];
  const int t = threadIdx.x;
  const long first = static_cast<long>(blockIdx.x) * kBlockThreads;
  const int count = static_cast<int>(min(static_cast<long>(kBlockThreads), n - first));
  if (t < count) {
    stage[stage_offset(t)] = in[first + t]; // one shared store per warp
  }
  __syncthreads();
  if (t < count) {
    out[first + t] = stage[stage_offset(reversed_thread(t, count))]; // one shared load per warp
  }
}
// [reverse_blocks]

} // namespace

void reverse_blocks(const float* in, float* out, int n, cudaStream_t stream) {
  if (n <= 0) {
    return;
  }
  const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
  reverse_blocks_kernel<<<blocks, kBlockThreads, 0, stream>>>(in, out, n);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson01
