// Part 3, the plan as data: warm-up launches before the timed ones, and enough timed launches
// that one slow launch cannot move the figure. The plan asks the CUDA runtime (the device's
// SMs, the occupancy API), so this runs on a GPU.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/testing.hpp"

namespace {

/// Untimed launches of each kernel the plan needs at least: a kernel's first launch also
/// loads its code onto the GPU (modules load lazily, at first use, since CUDA 12.2), and
/// that time is not the kernel's.
constexpr int kMinWarmup = 1;
/// Timed launches of each kernel the plan needs at least: three is the fewest whose median
/// one slow launch cannot move (of two, the median is their mean).
constexpr int kMinRepeats = 3;

TEST(HarnessPlan, WarmsUpAndRepeats) {
  KIT_REQUIRE_GPU();
  const lesson10::HarnessPlan plan = lesson10::plan_harness();
  EXPECT_GE(plan.warmup, kMinWarmup)
      << "plan_harness() plans " << plan.warmup << " untimed launches of each kernel: the "
      << "first launch of a kernel also loads its code, so the first timed launch would time "
      << "that too";
  EXPECT_GE(plan.repeats, kMinRepeats)
      << "plan_harness() plans " << plan.repeats << " timed launch(es) of each kernel: with "
      << "fewer than " << kMinRepeats << ", one slow launch (a clock change, a neighbour's "
      << "work) moves the figure whatever statistic you keep";
}

} // namespace
