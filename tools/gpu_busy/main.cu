// gpu-busy: keeps every SM of the GPU busy with short spinning kernels for a bounded time, then
// exits. It is the "second process" of the timing-robustness check: slowdown tests run beside
// it must pass or report inconclusive, never fail.
//
//   gpu-busy --seconds 60 [--kernel-ms 2]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kit/cuda_check.hpp"
#include "kit/device.hpp"

namespace {

__global__ void spin(long long cycles, unsigned* sink) {
  const long long start = clock64();
  unsigned x = threadIdx.x;
  while (clock64() - start < cycles) {
    x = x * 1664525u + 1013904223u;
  }
  if (x == 0xdeadbeefu) {
    *sink = x;
  }
}

int usage(const char* why) {
  std::fprintf(stderr, "gpu-busy: %s\nusage: gpu-busy --seconds S [--kernel-ms M]\n", why);
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  double seconds = -1, kernel_ms = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--seconds" || a == "--kernel-ms") && i + 1 < argc) {
      char* end = nullptr;
      const double v = std::strtod(argv[++i], &end);
      if (*end != '\0' || !(v > 0) || v > 3600) {
        return usage(("bad number for " + a + ": '" + argv[i] + "'").c_str());
      }
      (a == "--seconds" ? seconds : kernel_ms) = v;
    } else {
      return usage(("unknown or incomplete argument '" + a + "'").c_str());
    }
  }
  if (seconds <= 0) {
    return usage("--seconds is required (at most 3600)");
  }
  const kit::GpuStatus& gpu = kit::gpu_status();
  if (!gpu.usable) {
    std::fprintf(stderr, "gpu-busy: %s\n", gpu.reason.c_str());
    return 1;
  }
  try {
    int clock_khz = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, gpu.device));
    const long long cycles = static_cast<long long>(kernel_ms * clock_khz);
    unsigned* sink = nullptr;
    CUDA_CHECK(cudaMalloc(&sink, sizeof(unsigned)));
    const auto stop = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    long launches = 0;
    while (std::chrono::steady_clock::now() < stop) {
      spin<<<gpu.sm_count * 4, 256>>>(cycles, sink);
      CUDA_CHECK_LAUNCH();
      CUDA_CHECK(cudaDeviceSynchronize());
      ++launches;
    }
    CUDA_CHECK(cudaFree(sink));
    std::printf("gpu-busy: %ld launches of %.1f ms in %.0f s\n", launches, kernel_ms, seconds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu-busy: %s\n", e.what());
    return 1;
  }
  return 0;
}
