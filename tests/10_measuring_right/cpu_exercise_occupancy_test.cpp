// Part 2: resident_blocks, resident_warps and saturating_grid against the limits an SM
// must respect (no GPU needed). The GPU test gpu_exercise_occupancy_test holds the same
// functions against the CUDA occupancy API on the GPU at hand.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include <string>
#include <vector>

#include "occupancy_limits.hpp"

namespace {

using lesson10::SmLimits;

/// SMs of the kinds the course builds for (cudaDeviceProp's figures): 2048 threads and 32
/// blocks (sm_90), 1536 threads and 24 blocks (sm_89), 1024 threads and 16 blocks (sm_75).
const std::vector<SmLimits>& sms() {
  static const std::vector<SmLimits> v = {
      {2048, 32, 233472, 1024}, {1536, 24, 102400, 1024}, {1024, 16, 65536, 0}};
  return v;
}

std::string where(const SmLimits& sm, int threads, int smem) {
  return "SM of " + std::to_string(sm.max_threads) + " threads, " + std::to_string(sm.max_blocks) +
         " blocks, " + std::to_string(sm.smem_bytes) + " B shared (" +
         std::to_string(sm.smem_reserved_per_block) + " B reserved a block); blocks of " +
         std::to_string(threads) + " threads using " + std::to_string(smem) + " B";
}

/// True when `blocks` blocks of the kernel fit on the SM at once (an SM holds whole warps).
bool fits(const SmLimits& sm, int blocks, int threads, int smem) {
  return lesson10::testing::fits(sm, blocks, threads, smem);
}

TEST(Occupancy, ResidentBlocksFitAndNoMoreWould) {
  // A crash on a block without shared memory (a division by zero) fails here with a message.
  if (!lesson10::testing::survives_blocks_without_shared_memory(sms())) {
    return;
  }
  for (const SmLimits& sm : sms()) {
    for (int threads = 16; threads <= 1024; threads += 16) {
      for (int smem : {0, 4224, 12288, 45184}) {
        const int n = lesson10::resident_blocks(sm, threads, smem);
        ASSERT_TRUE(fits(sm, n, threads, smem))
            << where(sm, threads, smem) << ": resident_blocks says " << n
            << ", but that many exceed a limit (threads in whole warps, blocks or shared "
               "memory, with the reserved bytes of every block)";
        ASSERT_FALSE(fits(sm, n + 1, threads, smem))
            << where(sm, threads, smem) << ": resident_blocks says " << n << ", but " << n + 1
            << " fit within every limit: the count is the largest that fits";
      }
    }
  }
}

TEST(Occupancy, ResidentWarpsAreWholeWarpsOfResidentBlocks) {
  for (const SmLimits& sm : sms()) {
    for (int threads : {32, 48, 96, 128, 200, 256, 1024}) {
      const int blocks = lesson10::resident_blocks(sm, threads, 4224);
      const int warps_per_block = lesson10::testing::warps_of(threads); // a part-warp too
      EXPECT_EQ(lesson10::resident_warps(sm, threads, 4224), blocks * warps_per_block)
          << where(sm, threads, 4224) << ": " << blocks << " blocks of " << warps_per_block
          << " warps each (a block of 48 threads still takes two warps)";
    }
  }
}

TEST(Occupancy, SaturatingGridGivesEverySmItsBlocks) {
  for (int sm_count : {1, 46, 132}) {
    for (int per_sm : {1, 8, 32}) {
      const int grid = lesson10::saturating_grid(sm_count, per_sm);
      EXPECT_EQ(grid % sm_count, 0) << sm_count << " SMs, " << per_sm << " blocks each: a grid of "
                                    << grid << " leaves SMs with fewer blocks than others";
      EXPECT_EQ(grid / sm_count, per_sm)
          << sm_count << " SMs, " << per_sm << " blocks each: a grid of " << grid;
    }
  }
}

} // namespace
