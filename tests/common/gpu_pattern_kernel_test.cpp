// The pattern kernel and the trace replay run cleanly for every width, loads and stores, full
// and partial warps: these launches are what the sanitizer run checks (they run in the small
// mode too, where counter and timing tests skip).
#include <gtest/gtest.h>

#include "kit/cuda_check.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

void run_clean(const kit::Pattern& p) {
  const kit::PatternBench bench(p);
  bench.run(2, 2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

TEST(PatternKernel, RunsEveryWidthLoadsAndStores) {
  KIT_REQUIRE_GPU();
  for (kit::SharedOp op : {kit::SharedOp::load, kit::SharedOp::store}) {
    for (int width : {1, 2, 4, 8, 16}) {
      for (unsigned stride : {1u, 2u, 33u}) {
        run_clean(kit::strided_pattern(width, stride, op));
        run_clean(kit::strided_pattern(width, stride, op, 0x0000ffffu));
      }
    }
  }
  // Broadcast loads: many lanes read one word, no race.
  for (int width : {1, 2, 4, 8, 16}) {
    run_clean(kit::strided_pattern(width, 0));
  }
}

// Several lanes of one instruction store to one word: exactly one of them wins, and which one
// is not defined. Lesson 04 shows its cost (one wavefront). It is a data race on purpose, so
// the sanitizer run excludes this test from racecheck by name
// (tools/reliability/run_sanitizers.py).
TEST(PatternKernel, BroadcastStoresRaceOnPurpose) {
  KIT_REQUIRE_GPU();
  for (int width : {1, 2, 4, 8, 16}) {
    run_clean(kit::strided_pattern(width, 0, kit::SharedOp::store));
  }
}

// One replay of every width, loads and stores, full and partial warps, and copies shifted by two
// rows (which the plan folds into one instruction): each lane stays inside its region
// (memcheck), and no two warps or store instructions write one word (racecheck). Two warps a
// block keep its shared memory (21 KB) under the 48 KB every GPU gives a block.
TEST(TraceReplay, RunsEveryWidthLoadsAndStores) {
  KIT_REQUIRE_GPU();
  kit::Trace t;
  for (kit::SharedOp op : {kit::SharedOp::load, kit::SharedOp::store}) {
    for (int width : {1, 2, 4, 8, 16}) {
      for (unsigned stride : {1u, 2u, 3u}) {
        t.add(op, kit::strided_access(width, stride), 2);
        t.add(op, kit::strided_access(width, stride, 256), 1);
        t.add(op, kit::strided_access(width, stride, 4096, 0x0000ffffu), 1);
      }
    }
  }
  kit::TraceReplay replay("every width", t, 2 * kit::kWarpSize);
  ASSERT_EQ(replay.instructions(), 2u * 5u * 3u * 2u)
      << "the shifted copies fold into their originals";
  replay.run(2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
