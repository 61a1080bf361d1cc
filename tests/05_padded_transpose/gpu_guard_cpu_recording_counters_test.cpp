// The CPU run of the lesson's kernels held to the hardware: for every kernel of the lesson and
// every shape its CPU tests run it on, the shared requests and wavefronts the CPU run recorded
// (the lesson's CPU kernel test program of this tree, run from here) equal the GPU's counters for
// the same launch. This is what makes the CPU tests' verdict on a kernel's conflicts worth
// trusting.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <demo.hpp>

#include "kit/buffer.hpp"
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
    kit::DeviceBuffer<float> in(n), out(n);
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
