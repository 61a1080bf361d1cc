#include <exercise.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"

// Part 3: the harness, written with CUDA events and the occupancy API.

namespace lesson10 {
namespace {

/// Threads per block: 8 warps, so a handful of blocks fill an SM.
constexpr int kHarnessBlockThreads = 256;
/// Rounds per thread: at 64 warps per SM, about a quarter of a millisecond of twin reads.
constexpr int kHarnessRounds = 1024;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

HarnessPlan plan_harness() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int sm_count = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  // Both kernels must hold the same number of blocks per SM, or the ratio compares two
  // different occupancies.
  int conflict_blocks = 0, twin_blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &conflict_blocks, probe_kernel(Probe::conflict), kHarnessBlockThreads, 0));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&twin_blocks, probe_kernel(Probe::twin),
                                                           kHarnessBlockThreads, 0));
  if (conflict_blocks != twin_blocks || conflict_blocks < 1) {
    throw std::runtime_error("the probe kernels reach different occupancies");
  }
  HarnessPlan plan;
  plan.launch.blocks = saturating_grid(sm_count, conflict_blocks);
  plan.launch.block_threads = kHarnessBlockThreads;
  plan.launch.rounds = kHarnessRounds;
  plan.warmup = 3;
  plan.repeats = 15;
  return plan;
}

HarnessResult run_harness(const HarnessPlan& plan) {
  kit::DeviceBuffer<float> sink(1);
  kit::Event start, stop;
  const auto time_one = [&](Probe p) {
    start.record();
    launch_probe(p, plan.launch, sink.get());
    stop.record();
    stop.synchronize();
    return static_cast<double>(stop.ms_since(start));
  };
  // The two kernels take turns in runs, so a change of clock or a neighbour's work touches
  // both alike. Each run starts with an untimed launch: a kernel's first launch loads its
  // code, and a launch that follows the other kernel starts late. The median ignores the odd
  // slow launch.
  const int runs = std::max(plan.warmup, 1);
  std::vector<double> conflict, twin;
  const auto run = [&](Probe p, int timed, std::vector<double>& times) {
    if (plan.warmup > 0) {
      time_one(p);
    }
    for (int i = 0; i < timed; ++i) {
      times.push_back(time_one(p));
    }
  };
  for (int k = 0; k < runs; ++k) {
    const int timed = plan.repeats / runs + (k < plan.repeats % runs ? 1 : 0);
    run(Probe::conflict, timed, conflict);
    run(Probe::twin, timed, twin);
  }
  HarnessResult r;
  if (plan.repeats > 0) {
    r.conflict_ms = median(conflict);
    r.twin_ms = median(twin);
  }
  return r;
}

} // namespace lesson10
