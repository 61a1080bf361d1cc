// The CPU run of the lesson's kernels held to the hardware: for transpose_half and
// transpose_half2 on every shape the CPU tests run them on, the shared requests and wavefronts
// the CPU run recorded (the lesson's CPU kernel test program of this tree, run from here) equal the
// GPU's counters for the same launch.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <demo.hpp>

#include "half_trace.hpp"
#include "kit/buffer.hpp"
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
  for (const auto& [name, op] : ops) {
    bool seen = false;
    for (const kit::testing::CpuRecorded& r : runs) {
      seen = seen || r.kernel == name;
    }
    EXPECT_TRUE(seen) << name << " was not run on the CPU";
  }
  for (const kit::testing::CpuRecorded& r : runs) {
    const auto op = ops.find(r.kernel);
    ASSERT_NE(op, ops.end()) << "the CPU tests ran an unknown kernel: " << r.kernel;
    const std::size_t n = static_cast<std::size_t>(r.rows) * static_cast<std::size_t>(r.cols);
    kit::DeviceBuffer<__half> in(n), out(n);
    in.fill_bytes(0);
    const std::string what =
        r.kernel + " " + std::to_string(r.rows) + " x " + std::to_string(r.cols);
    const kit::SharedCounters c =
        session().measure([&, f = op->second] { f(in.get(), out.get(), r.rows, r.cols, nullptr); });
    kit::testing::report(what + " (CPU run)", c, r.counts);
    EXPECT_TRUE(kit::testing::counts_match(c, r.counts))
        << what << ": the GPU's counters differ from what the CPU run of the same kernel recorded";
  }
}

} // namespace
