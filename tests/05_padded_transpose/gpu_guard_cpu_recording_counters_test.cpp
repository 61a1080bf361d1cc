// The CPU run of the lesson's kernels held to the hardware: for every kernel of the lesson and
// every shape its CPU tests run it on, the shared requests and wavefronts the CPU run recorded
// (the lesson's CPU kernel test program of this tree, run from here) equal the GPU's counters for
// the same launch. This is what makes the CPU tests' verdict on a kernel's conflicts worth
// trusting.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "kit/testing_cpu_run.hpp"

namespace {

class CpuRecording : public kit::testing::CounterTest {};

TEST_F(CpuRecording, EqualsTheCounters) {
  std::string error;
  const auto runs =
      kit::testing::cpu_recorded_counts("lesson05", COURSE_TREE, "*KernelOnCpu.*", &error);
  ASSERT_TRUE(error.empty()) << error;
  const std::map<std::string, lesson05::MatrixOp> ops = {
      {"copy_matrix", lesson05::copy_matrix},
      {"transpose_naive", lesson05::transpose_naive},
      {"transpose_tiled", lesson05::transpose_tiled},
      {"transpose_padded", lesson05::transpose_padded}};
  kit::testing::expect_cpu_runs_match_counters<float>(session(), runs, ops);
}

} // namespace
