// Part 2 on the GPU: resident_blocks and resident_warps give what the CUDA occupancy API
// says for the probe kernel, on this GPU, at every block size and a few shared-memory sizes.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/testing.hpp"
#include "probe_gpu.hpp"

namespace {

TEST(OccupancyOnGpu, ResidentBlocksMatchTheOccupancyApi) {
  KIT_REQUIRE_GPU();
  const lesson10::SmLimits sm = lesson10::testing::device_sm_limits();
  const int static_smem = lesson10::testing::probe_static_smem(lesson10::Probe::conflict);
  // Dynamic shared memory on top of the kernel's own tile, up to the 48 KiB a block gets
  // without opting in.
  for (int dynamic : {0, 8192, 40960}) {
    for (int threads = kit::kWarpSize; threads <= lesson10::kProbeMaxThreads;
         threads += kit::kWarpSize) {
      const int api =
          lesson10::testing::occupancy_api_blocks(lesson10::Probe::conflict, threads, dynamic);
      const int smem = static_smem + dynamic;
      ASSERT_EQ(lesson10::resident_blocks(sm, threads, smem), api)
          << "blocks of " << threads << " threads with " << smem << " B of shared memory on an SM "
          << "of " << sm.max_threads << " threads, " << sm.max_blocks << " blocks, "
          << sm.smem_bytes << " B (" << sm.smem_reserved_per_block
          << " B reserved a block): resident_blocks against "
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
      ASSERT_EQ(lesson10::resident_warps(sm, threads, smem) * kit::kWarpSize, api * threads)
          << "resident_warps for blocks of " << threads << " threads";
    }
  }
}

} // namespace
