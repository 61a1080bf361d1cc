// Part 2, two limits the README names, each on its own: an SM holds whole warps, and a block
// that costs no shared memory meets no shared-memory limit (no GPU needed).
#include <gtest/gtest.h>

#include <exercise.hpp>

#include <vector>

#include "occupancy_limits.hpp"

namespace {

using lesson10::SmLimits;

/// An H100's SM (cudaDeviceProp): 2048 threads (64 warps), 32 blocks, 228 KiB, 1 KiB reserved
/// a block. And a Turing SM (sm_75): 1024 threads (32 warps), 16 blocks, 64 KiB, none reserved.
constexpr SmLimits kH100{2048, 32, 233472, 1024};
constexpr SmLimits kTuring{1024, 16, 65536, 0};

TEST(OccupancyLimits, ABlockTakesWholeWarps) {
  // 112 threads are 3.5 warps: the SM gives the block 4. 64 warps hold 16 such blocks, where
  // 2048 threads / 112 would say 18 (72 warps, more than the SM has).
  if (!lesson10::testing::survives_blocks_without_shared_memory({kTuring})) {
    return;
  }
  for (const SmLimits& sm : {kH100, kTuring}) {
    for (int threads : {48, 112, 200, 1000}) {
      const int n = lesson10::resident_blocks(sm, threads, 0);
      const int warps = lesson10::testing::warps_of(threads);
      EXPECT_TRUE(lesson10::testing::fits(sm, n, threads, 0))
          << "blocks of " << threads << " threads (" << warps << " warps each: an SM holds whole "
          << "warps) on an SM of " << sm.max_threads / kit::kWarpSize << " warps and "
          << sm.max_blocks << " blocks: resident_blocks says " << n << ", " << n * warps
          << " warps";
      EXPECT_FALSE(lesson10::testing::fits(sm, n + 1, threads, 0))
          << "blocks of " << threads << " threads (" << warps << " warps each) on an SM of "
          << sm.max_threads / kit::kWarpSize << " warps and " << sm.max_blocks
          << " blocks: resident_blocks says " << n << ", but " << n + 1 << " fit";
    }
  }
}

TEST(OccupancyLimits, NoSharedMemoryLeavesThreadsAndBlocks) {
  if (!lesson10::testing::survives_blocks_without_shared_memory({kTuring})) {
    return;
  }
  // No shared memory and none reserved: only the warps and the block count limit the SM.
  for (int threads : {32, 64, 256, 1024}) {
    const int n = lesson10::resident_blocks(kTuring, threads, 0);
    EXPECT_TRUE(lesson10::testing::fits(kTuring, n, threads, 0))
        << "blocks of " << threads << " threads that use no shared memory, on an SM of "
        << kTuring.max_threads << " threads and " << kTuring.max_blocks
        << " blocks that reserves none: resident_blocks says " << n
        << ", more than the warps and the block limit allow";
    EXPECT_FALSE(lesson10::testing::fits(kTuring, n + 1, threads, 0))
        << "blocks of " << threads << " threads that use no shared memory, on an SM of "
        << kTuring.max_threads << " threads and " << kTuring.max_blocks
        << " blocks that reserves none: resident_blocks says " << n << ", but " << n + 1
        << " fit: shared memory sets no limit here, threads and blocks do";
  }
}

} // namespace
