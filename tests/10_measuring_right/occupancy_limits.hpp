// What an SM holds, for the occupancy tests of lesson 10 (host code, GoogleTest): the limits
// as the hardware applies them, and a guard that turns a crash of resident_blocks into a
// failure with a message.
#pragma once

#include <gtest/gtest.h>

#include <exercise.hpp>

#include <cstdlib>
#include <vector>

#include "kit/config.hpp"

namespace lesson10::testing {

/// Warps a block of `threads` threads takes on an SM: whole warps (48 threads take two).
inline int warps_of(int threads) {
  return (threads + kit::kWarpSize - 1) / kit::kWarpSize;
}

/// True when `blocks` blocks of `threads` threads, `smem` bytes of shared memory each, fit on
/// the SM at once: their warps within maxThreadsPerMultiProcessor / 32 (an SM schedules whole
/// warps, as the CUDA occupancy calculator counts them), the block limit, and the shared
/// memory with the bytes reserved for every block.
inline bool fits(const SmLimits& sm, int blocks, int threads, int smem) {
  return blocks * warps_of(threads) <= sm.max_threads / kit::kWarpSize && blocks <= sm.max_blocks &&
         static_cast<long>(blocks) * (smem + sm.smem_reserved_per_block) <= sm.smem_bytes;
}

/// Whether resident_blocks returns for blocks that cost the SM no shared memory at all, on
/// every SM of `sms` that reserves none (no bytes to divide by), checked in a child process (a
/// GoogleTest death test): a division by that zero would kill the test program with SIGFPE
/// and no message. A crash fails the calling test with one; false then.
inline bool survives_blocks_without_shared_memory(const std::vector<SmLimits>& sms) {
  bool ok = true;
  for (const SmLimits& sm : sms) {
    if (sm.smem_reserved_per_block != 0) {
      continue;
    }
    EXPECT_EXIT(std::exit(lesson10::resident_blocks(sm, 256, 0) >= 0 ? 0 : 1),
                ::testing::ExitedWithCode(0), "")
        << "resident_blocks(sm, 256, 0), on an SM of " << sm.max_threads << " threads, "
        << sm.max_blocks << " blocks, " << sm.smem_bytes
        << " B shared and none reserved a block, did not return (a division by zero?). A "
           "block that costs no shared memory meets no shared-memory limit: threads and blocks "
           "decide.";
    ok = ok && !::testing::Test::HasFailure();
  }
  return ok;
}

} // namespace lesson10::testing
