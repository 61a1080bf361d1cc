// The CPU run of the lesson's kernels held to the hardware: for transpose_half and
// transpose_half2 on every shape the CPU tests run them on, and for every launch of the counter
// tests, the shared requests and wavefronts the CPU run recorded (the lesson's CPU kernel test
// program of this tree, run from here) equal the GPU's counters for the same launch: what the
// counter tests' counts rest on where the grader finds the counters refused and takes them from
// the CPU run.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <demo.hpp>

#include "half_check.hpp"
#include "half_trace.hpp"
#include "kit/testing.hpp"
#include "kit/testing_cpu_run.hpp"

namespace {

class CpuRecording : public kit::testing::CounterTest {};

TEST_F(CpuRecording, EqualsTheCounters) {
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  std::string error;
  std::vector<kit::testing::CpuRecorded> runs =
      kit::testing::cpu_recorded_counts("*KernelOnCpu.*", &error);
  ASSERT_TRUE(error.empty()) << error;
  // And the launches of the counter tests, whose counts come from the CPU run where the grader
  // finds the counters refused.
  const auto asked = kit::testing::record_launches(lesson06::testing::counter_launches(), &error);
  ASSERT_TRUE(error.empty()) << error;
  runs.insert(runs.end(), asked.begin(), asked.end());
  const std::map<std::string, lesson06::HalfMatrixOp> ops = {
      {"transpose_half", lesson06::transpose_half}, {"transpose_half2", lesson06::transpose_half2}};
  kit::testing::expect_cpu_runs_match_counters<__half>(session(), runs, ops);
}

} // namespace
