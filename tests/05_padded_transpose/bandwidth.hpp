// Bandwidth of the lesson's kernels against a device-to-device cudaMemcpy of the same bytes,
// measured in one run (kit::judge_at_least alternates the two launches).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>
#include <string>

#include <demo.hpp>

#include "kit/cuda_check.hpp"
#include "kit/timer.hpp"

namespace lesson05::testing {

/// The side of the square matrix the bandwidth is measured on (fp32: 256 MiB each way).
inline constexpr int kBandwidthSide = 8192;

/// Launches and samples of every bandwidth measurement.
inline constexpr kit::TimerOptions kBandwidthTiming{3, 25};

/// A lesson kernel on (in, out, rows, cols) as the timer wants it.
inline kit::Launch op_launch(std::string name, MatrixOp op, const float* in, float* out, int rows,
                             int cols) {
  kit::Launch l;
  l.name = std::move(name);
  l.run = [=](cudaStream_t s) { op(in, out, rows, cols, s); };
  return l;
}

/// A device-to-device cudaMemcpy of `bytes` as the timer wants it.
inline kit::Launch memcpy_launch(float* dst, const float* src, std::size_t bytes) {
  kit::Launch l;
  l.name = "cudaMemcpy D2D";
  l.run = [=](cudaStream_t s) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
  };
  return l;
}

/// GB/s of a launch that reads `bytes` and writes `bytes` in `ms` milliseconds.
inline double gigabytes_per_second(std::size_t bytes, double ms) {
  return ms > 0 ? 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0.0;
}

/// Prints one machine-readable line (read back by the course's tools):
/// `[kit-bandwidth] transpose_padded: 2716 GB/s, 0.90 of memcpy`.
inline void report_bandwidth(const std::string& name, double gbps, double of_memcpy) {
  std::printf("[kit-bandwidth] %s: %.0f GB/s, %.2f of memcpy\n", name.c_str(), gbps, of_memcpy);
  std::fflush(stdout);
}

} // namespace lesson05::testing
