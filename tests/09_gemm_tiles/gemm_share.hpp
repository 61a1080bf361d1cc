// A kernel's share of cuBLAS SGEMM's speed at 4096^3, held to a least share set per
// architecture (GPU tests only).
#pragma once

#include <cstdio>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "cublas_sgemm.hpp"
#include "gemm_run.hpp"
#include "kit/buffer.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"

namespace lesson09::testing {

/// The side of the square problem the shares are measured on.
inline constexpr int kShareSide = 4096;

/// Measures `v` against cuBLAS on one 4096^3 problem (alternating launches) and expects at
/// least `floors[arch]` of cuBLAS's speed. Skips, with the reason, on an architecture that has
/// no floor (they are set where they were measured: docs/measurements/gemm_tiles.csv).
inline void expect_share_of_cublas(const Variant& v, const std::map<int, double>& floors,
                                   const std::string& hint) {
  const kit::GpuStatus& gpu = kit::gpu_status();
  const auto floor = floors.find(gpu.major * 10 + gpu.minor);
  if (floor == floors.end()) {
    GTEST_SKIP() << "no least share of cuBLAS is set for " << v.name << " on " << gpu.arch()
                 << ": the floors are set per architecture, where they were measured";
  }
  Cublas cublas;
  const std::size_t elems = static_cast<std::size_t>(kShareSide) * kShareSide;
  kit::DeviceBuffer<float> a(elems), b(elems), c(elems);
  a.fill_bytes(0);
  b.fill_bytes(0);
  const kit::AtLeastVerdict verdict = kit::judge_at_least(
      gemm_launch(v, a.get(), b.get(), c.get(), kShareSide, kShareSide, kShareSide),
      cublas.launch(a.get(), b.get(), c.get(), kShareSide, kShareSide, kShareSide),
      [](const kit::Slowdown& s) { return s.ratio > 0 ? 1.0 / s.ratio : 0.0; }, floor->second,
      v.name + "'s share of cublasSgemm's speed at 4096^3", {2, 10});
  std::printf("[kit-speedup] %s: %.0f GFLOP/s, cublasSgemm %.0f GFLOP/s: %.3f of cuBLAS (at "
              "least %.2f)\n",
              v.name.c_str(),
              gflops(kShareSide, kShareSide, kShareSide, verdict.measured.a.median_ms),
              gflops(kShareSide, kShareSide, kShareSide, verdict.measured.b.median_ms),
              verdict.best, floor->second);
  std::fflush(stdout);
  KIT_EXPECT_VERDICT(verdict, hint);
}

} // namespace lesson09::testing
