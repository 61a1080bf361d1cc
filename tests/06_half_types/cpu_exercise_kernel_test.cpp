// Part 3 on the CPU: your transpose_half2 kernel itself (exercise.cu, compiled by the host
// compiler) runs with each block's threads as fibers. Every shape must transpose exactly, with
// no race, no access outside the matrix or the tile, no misaligned pair and no barrier that a
// thread misses; full tiles must move in pairs exactly as the lesson's geometry says (demo.hpp:
// block_row_pair, out_row, ...), and every request must cost the ideal of its width. Timing
// stays the GPU's.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cpu_kernel_run.hpp"

namespace {

TEST(KernelOnCpu, Half2KernelMovesPairsConflictFree) {
  lesson06::testing::expect_kernel_on_cpu("transpose_half2", lesson06::transpose_half2, true, true);
}

// Not a test of the lesson's (GoogleTest runs a DISABLED_ test only when asked): where the grader
// finds the counters refused, a GPU counter test runs this program for the CPU recording of its
// launches ($KIT_CPU_RUNS, kit/testing_cpu_run.hpp), each logged as run_on_cpu logs a run.
TEST(CpuRecording, DISABLED_RequestedLaunches) {
  const std::map<std::string, lesson06::HalfMatrixOp> ops = {
      {"transpose_half", lesson06::transpose_half}, {"transpose_half2", lesson06::transpose_half2}};
  for (const kit::RecordedLaunch& launch : kit::cpu::requested_launches()) {
    const auto op = ops.find(launch.kernel);
    ASSERT_NE(op, ops.end()) << "lesson 06 has no kernel " << launch.kernel;
    lesson06::testing::run_on_cpu(launch.kernel.c_str(), op->second, {launch.rows, launch.cols});
  }
}

} // namespace
