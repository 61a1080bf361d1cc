// Part 3 on the GPU, counted: the plan's conflict launch fills every SM with enough warps for
// a conflict to show in time (the counters count the reads of the grid actually launched).
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"
#include "probe_gpu.hpp"

namespace {

class HarnessCounters : public kit::testing::CounterTest {};

TEST_F(HarnessCounters, ThePlanFillsEverySm) {
  const lesson10::HarnessPlan plan = lesson10::plan_harness();
  const int sms = lesson10::testing::device_sm_count();
  const int per_sm =
      lesson10::testing::occupancy_api_blocks(lesson10::Probe::conflict, plan.launch.block_threads);
  const int warps_per_sm = per_sm * plan.launch.block_threads / kit::kWarpSize;
  // The counters of the plan's conflict launch: every warp's reads, so the grid is the one
  // launched, not the one intended.
  const kit::SharedCounters c = session().measure([&] {
    kit::DeviceBuffer<float> sink(1);
    lesson10::launch_probe(lesson10::Probe::conflict, plan.launch, sink.get());
  });
  const std::uint64_t reads_per_warp =
      static_cast<std::uint64_t>(plan.launch.rounds) * lesson10::kProbeUnroll;
  const std::uint64_t full_gpu = static_cast<std::uint64_t>(sms) * per_sm *
                                 (plan.launch.block_threads / kit::kWarpSize) * reads_per_warp;
  std::printf("[lesson10-plan] %d blocks of %d threads, %d rounds; %d blocks (%d warps) per SM "
              "fit; %llu column reads counted, %llu fill every SM once\n",
              plan.launch.blocks, plan.launch.block_threads, plan.launch.rounds, per_sm,
              warps_per_sm, static_cast<unsigned long long>(c.sass.load_requests),
              static_cast<unsigned long long>(full_gpu));
  EXPECT_GE(warps_per_sm, kit::kMinWarpsPerSmForSlowdown)
      << "blocks of " << plan.launch.block_threads << " threads put " << warps_per_sm
      << " warps on an SM: too few to keep the shared-memory pipe busy";
  EXPECT_GE(c.sass.load_requests, full_gpu)
      << "the conflict launch issued " << c.sass.load_requests << " column reads; a grid that "
      << "puts " << per_sm << " blocks on each of the " << sms << " SMs issues " << full_gpu
      << ": most SMs sit idle, and an idle SM hides the conflict";
  EXPECT_GT(reads_per_warp, 0u) << "a plan with no reads times nothing";
}

} // namespace
