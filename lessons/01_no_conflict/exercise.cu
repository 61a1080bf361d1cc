#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson01 {
namespace {

__global__ void reverse_blocks_kernel(const float* in, float* out, int n) {
  __shared__ float stage[kBlockThreads];
  const int t = threadIdx.x;
  const long first = static_cast<long>(blockIdx.x) * kBlockThreads;
  const int count = static_cast<int>(min(static_cast<long>(kBlockThreads), n - first));
  if (t < count) {
    stage[stage_slot(t)] = in[first + t]; // one shared store per warp
  }
  __syncthreads();
  if (t < count) {
    out[first + t] = stage[stage_slot(reversed_thread(t, count))]; // one shared load per warp
  }
}

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
