// The CPU run of the lesson's kernels held to the hardware: for every kernel of the lesson and
// every shape its CPU tests run it on, and for the launches of the counter tests, the shared
// requests and wavefronts the CPU run recorded (the lesson's CPU kernel test program of this
// tree, run from here) equal the GPU's counters for the same launch. This is what makes the CPU
// tests' verdict on a kernel's conflicts worth trusting, and the counter tests' counts where the
// grader finds the counters refused and takes them from the CPU run.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "kit/testing_cpu_run.hpp"
#include "transpose_trace.hpp"

namespace {

class CpuRecording : public kit::testing::CounterTest {};

TEST_F(CpuRecording, EqualsTheCounters) {
  std::string error;
  std::vector<kit::testing::CpuRecorded> runs =
      kit::testing::cpu_recorded_counts("*KernelOnCpu.*", &error);
  ASSERT_TRUE(error.empty()) << error;
  // And the launches of the counter tests, whose counts come from the CPU run where the grader
  // finds the counters refused.
  std::vector<kit::RecordedLaunch> launches;
  for (const auto& [rows, cols] : lesson05::testing::counter_shapes()) {
    for (const char* kernel : {"transpose_tiled", "transpose_padded"}) {
      launches.push_back({kernel, rows, cols});
    }
  }
  const auto asked = kit::testing::record_launches(launches, &error);
  ASSERT_TRUE(error.empty()) << error;
  runs.insert(runs.end(), asked.begin(), asked.end());
  const std::map<std::string, lesson05::MatrixOp> ops = {
      {"copy_matrix", lesson05::copy_matrix},
      {"transpose_naive", lesson05::transpose_naive},
      {"transpose_tiled", lesson05::transpose_tiled},
      {"transpose_padded", lesson05::transpose_padded}};
  kit::testing::expect_cpu_runs_match_counters<float>(session(), runs, ops);
}

} // namespace
