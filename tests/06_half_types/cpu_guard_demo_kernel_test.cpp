// The demo's transpose_half (demo.cu, the kernel of the README's scalar path) on the CPU,
// through your tile: it transposes every shape with no race, no bounds error and no barrier
// missed, and its requests are the trace of one half per access. (Its cost is your layout's:
// the exercise tests judge that.)
#include <gtest/gtest.h>

#include "cpu_kernel_run.hpp"

namespace {

TEST(DemoKernelOnCpu, HalfKernelRunsAsItsTrace) {
  lesson06::testing::expect_kernel_on_cpu("transpose_half", lesson06::transpose_half, false, false);
}

} // namespace
