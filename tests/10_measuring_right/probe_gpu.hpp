// GPU-side helpers of lesson 10's tests: the SM's limits and the occupancy API's answer for
// the probe kernels. Only gpu_ and perf_ files include this.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson10::testing {

/// The current device's SM limits, as cudaDeviceProp reports them.
inline SmLimits device_sm_limits() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  return SmLimits{p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor,
                  static_cast<int>(p.sharedMemPerMultiprocessor),
                  static_cast<int>(p.reservedSharedMemPerBlock)};
}

/// SMs of the current device.
inline int device_sm_count() {
  int device = 0, n = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
  return n;
}

/// Static shared memory of a probe kernel, bytes.
inline int probe_static_smem(Probe p) {
  cudaFuncAttributes a{};
  CUDA_CHECK(cudaFuncGetAttributes(&a, probe_kernel(p)));
  return static_cast<int>(a.sharedSizeBytes);
}

/// Blocks of the probe kernel one SM holds, as the CUDA occupancy API says.
inline int occupancy_api_blocks(Probe p, int block_threads, int dynamic_smem = 0) {
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, probe_kernel(p), block_threads,
                                                           static_cast<size_t>(dynamic_smem)));
  return blocks;
}

} // namespace lesson10::testing
