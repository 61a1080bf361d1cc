// Part 3 on the CPU: your transpose_half2 kernel itself (exercise.cu, compiled by the host
// compiler) runs with each block's threads as fibers. Every shape must transpose exactly, with
// no race, no access outside the matrix or the tile, no misaligned pair and no barrier that a
// thread misses; full tiles must move in pairs exactly as the lesson's geometry says (demo.hpp:
// block_row_pair, out_row, ...), and every request must cost the ideal of its width. Timing
// stays the GPU's.
#include <gtest/gtest.h>

#include "cpu_kernel_run.hpp"

namespace {

TEST(KernelOnCpu, Half2KernelMovesPairsConflictFree) {
  lesson06::testing::expect_kernel_on_cpu("transpose_half2", lesson06::transpose_half2, true, true);
}

} // namespace
