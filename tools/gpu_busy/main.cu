// gpu-busy: keeps every SM of the GPU busy with short spinning kernels for a bounded time, then
// exits. It is the "second process" of the timing-robustness check: slowdown tests run beside
// it must pass or report inconclusive, never fail.
//
//   gpu-busy --seconds 60 [--kernel-ms 2]
//
// Bad arguments: one line, exit status 2; no usable GPU or a CUDA failure: 1.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli.hpp"
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

constexpr const char* kUsage =
    "usage: gpu-busy --seconds S [--kernel-ms M]\n"
    "Keeps every SM busy with spinning kernels of M milliseconds (2 unless given) for S seconds\n"
    "(at most 3600), then exits.\n";

struct Options {
  double seconds = -1;  ///< How long to keep the GPU busy.
  double kernel_ms = 2; ///< How long each spinning kernel runs.
};

Options parse(int argc, char** argv) {
  Options o;
  course_tools::Args args(argc, argv);
  while (!args.done()) {
    const std::string a = args.next();
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--seconds" || a == "--kernel-ms") {
      (a == "--seconds" ? o.seconds : o.kernel_ms) =
          course_tools::parse_number(args.value(a), a, 0, 3600);
    } else {
      throw course_tools::unknown(a);
    }
  }
  if (o.seconds <= 0) {
    throw course_tools::UsageError("--seconds is required (at most 3600)");
  }
  return o;
}

} // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const course_tools::UsageError& e) {
    std::fprintf(stderr, "gpu-busy: %s\n", e.what());
    return 2;
  }
  const double seconds = o.seconds, kernel_ms = o.kernel_ms;
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
