// The CPU run of the lesson's kernels held to the hardware: for transpose_half and
// transpose_half2 on every shape the CPU tests run them on, the shared requests and wavefronts
// the CPU run recorded (the lesson's CPU kernel test program of this tree, run from here) equal the
// GPU's counters for the same launch.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <demo.hpp>

#include "half_trace.hpp"
#include "kit/testing.hpp"
#include "kit/testing_cpu_run.hpp"

namespace {

class CpuRecording : public kit::testing::CounterTest {};

TEST_F(CpuRecording, EqualsTheCounters) {
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  std::string error;
  const auto runs =
      kit::testing::cpu_recorded_counts("lesson06", COURSE_TREE, "*KernelOnCpu.*", &error);
  ASSERT_TRUE(error.empty()) << error;
  const std::map<std::string, lesson06::HalfMatrixOp> ops = {
      {"transpose_half", lesson06::transpose_half}, {"transpose_half2", lesson06::transpose_half2}};
  kit::testing::expect_cpu_runs_match_counters<__half>(session(), runs, ops);
}

} // namespace
