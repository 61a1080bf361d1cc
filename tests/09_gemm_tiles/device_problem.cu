#include "device_problem.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"

// No kernel here has "gemm" in its name: the lesson's profiler command picks the GEMMs of a
// test run by that name (lessons/09_gemm_tiles/README.md).
namespace lesson09::testing {
namespace {

constexpr int kThreads = 256;

/// Blocks of a grid-stride loop over n > 0 elements: enough to fill any GPU, no more.
unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + kThreads - 1) / kThreads, 8192));
}

__device__ std::size_t first_index() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ std::size_t grid_stride() {
  return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}

/// SplitMix64's output function: consecutive inputs give unrelated 64-bit values.
__device__ std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void random_floats_kernel(float* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t e = first_index(); e < n; e += grid_stride()) {
    const std::uint64_t bits = mix(seed + 0x9e3779b97f4a7c15ull * (e + 1));
    // The top 24 bits as a multiple of 2^-23 in [-1, 1): exact in a float.
    out[e] = static_cast<float>(static_cast<std::int64_t>(bits >> 40) - (1 << 23)) * 0x1p-23f;
  }
}

__global__ void absolute_values_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t e = first_index(); e < n; e += grid_stride()) {
    out[e] = fabsf(in[e]);
  }
}

__global__ void outside_tolerance_kernel(const float* got, const float* want, const float* abs_sum,
                                         std::size_t n, int k, unsigned long long* first) {
  for (std::size_t e = first_index(); e < n; e += grid_stride()) {
    const double difference = fabs(static_cast<double>(got[e]) - want[e]);
    if (!(difference <= beside_cublas_tolerance(k, abs_sum[e]))) {
      atomicMin(first, static_cast<unsigned long long>(e));
    }
  }
}

} // namespace

void random_floats_on_device(float* out, std::size_t n, std::uint64_t seed) {
  if (n > 0) {
    random_floats_kernel<<<blocks_for(n), kThreads>>>(out, n, seed);
    CUDA_CHECK_LAUNCH();
  }
}

void absolute_values_on_device(const float* in, float* out, std::size_t n) {
  if (n > 0) {
    absolute_values_kernel<<<blocks_for(n), kThreads>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
  }
}

std::size_t first_outside_tolerance(const float* got, const float* want, const float* abs_sum,
                                    std::size_t n, int k) {
  kit::DeviceBuffer<unsigned long long> first(1);
  const unsigned long long none = n;
  CUDA_CHECK(cudaMemcpy(first.get(), &none, sizeof none, cudaMemcpyHostToDevice));
  if (n > 0) {
    outside_tolerance_kernel<<<blocks_for(n), kThreads>>>(got, want, abs_sum, n, k, first.get());
    CUDA_CHECK_LAUNCH();
  }
  unsigned long long e = none;
  CUDA_CHECK(cudaMemcpy(&e, first.get(), sizeof e, cudaMemcpyDeviceToHost));
  return static_cast<std::size_t>(e);
}

} // namespace lesson09::testing
