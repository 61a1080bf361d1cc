// One kernel of the family timed against another at the size its gain was recorded at,
// held to half the recorded gain (GPU tests only).
#pragma once

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "gemm_run.hpp"
#include "kit/buffer.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"
#include "measured_gain.hpp"

namespace lesson09::testing {

/// Recorded gains below this are reported, not asserted: too small to tell from noise.
inline constexpr double kMinAssertedGain = 0.10;

/// Times `faster` against `slower` (same block, shared memory and occupancy: checked) at
/// the recorded size, and expects time(slower) / time(faster) >= 1 + g / 2, where g is the
/// gain of `twin` over `slower` recorded in docs/measurements/gemm_gain.csv. Skips with the
/// reason when no gain is recorded for this architecture, or when it is below
/// kMinAssertedGain.
inline void expect_half_the_recorded_gain(const Variant& slower, const Variant& faster,
                                          const std::string& twin, const std::string& hint) {
  const auto g = recorded_gain(slower.name, twin);
  if (!g) {
    GTEST_SKIP() << "no gain of " << twin << " over " << slower.name << " is recorded in "
                 << gain_file() << " (run GemmTable.EveryVariantBesideCublas with "
                 << "LESSON09_MEASUREMENTS_OUT set on a GPU)";
  }
  const kit::GpuStatus& gpu = kit::gpu_status();
  if (g->arch() != gpu.arch()) {
    GTEST_SKIP() << "the gain of " << twin << " over " << slower.name << " was recorded on "
                 << g->device << ", not on this " << gpu.arch() << " GPU";
  }
  kit::DeviceBuffer<float> a(static_cast<std::size_t>(g->m) * g->k);
  kit::DeviceBuffer<float> b(static_cast<std::size_t>(g->k) * g->n);
  kit::DeviceBuffer<float> c(static_cast<std::size_t>(g->m) * g->n);
  a.fill_bytes(0);
  b.fill_bytes(0);
  const kit::Launch ls = gemm_launch(slower, a.get(), b.get(), c.get(), g->m, g->n, g->k);
  const kit::Launch lf = gemm_launch(faster, a.get(), b.get(), c.get(), g->m, g->n, g->k);
  ASSERT_EQ(kit::blocks_per_sm(ls.kernel, ls.block_threads, 0),
            kit::blocks_per_sm(lf.kernel, lf.block_threads, 0))
      << slower.name << " and " << faster.name << " must reach the same occupancy";
  const double bar = 1.0 + g->median_gain / 2;
  const std::string size =
      std::to_string(g->m) + " x " + std::to_string(g->n) + " x " + std::to_string(g->k);
  const kit::AtLeastVerdict v =
      kit::judge_at_least(ls, lf, [](const kit::Slowdown& s) { return s.ratio; }, bar,
                          faster.name + "'s speed-up over " + slower.name + " at " + size, {2, 10});
  std::printf("[kit-speedup] %s over %s at %s: %.3fx (recorded gain of %s %.3f on %s, %s: at "
              "least %.3fx)\n",
              faster.name.c_str(), slower.name.c_str(), size.c_str(), v.best, twin.c_str(),
              g->median_gain, g->device.c_str(), g->date.c_str(), bar);
  std::fflush(stdout);
  if (g->median_gain < kMinAssertedGain) {
    GTEST_SKIP() << "the recorded gain (" << g->median_gain << ") is below " << kMinAssertedGain
                 << ": the speed-up is reported, not asserted";
  }
  KIT_EXPECT_VERDICT(v, hint);
}

} // namespace lesson09::testing
