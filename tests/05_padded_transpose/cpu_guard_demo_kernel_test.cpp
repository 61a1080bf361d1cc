// The demos (demo.cu: the copy and the naive transpose) on the CPU: they move every element,
// with no race, no bounds error and no shared-memory access at all.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/cpu_run.hpp"
#include "matrix_check.hpp"

namespace {

using lesson05::testing::Shape;

void expect_demo_on_cpu(const char* name, lesson05::MatrixOp op, bool transposes) {
  for (const Shape s : lesson05::testing::kKernelShapes) {
    SCOPED_TRACE(std::string(name) + " on a " + s.name() + " matrix");
    std::vector<std::uint32_t> bits(s.size());
    std::iota(bits.begin(), bits.end(), 1u);
    std::vector<float> values(s.size());
    std::memcpy(values.data(), bits.data(), bits.size() * sizeof(float));
    kit::cpu::GuardedBuffer<float> in(s.size(), "in"), out(s.size(), "out");
    in.assign(values);
    const kit::cpu::KernelRun run =
        kit::cpu::record([&] { op(in.get(), out.get(), s.rows, s.cols, nullptr); });
    kit::cpu::log_counts(name, s.rows, s.cols, run);
    ASSERT_TRUE(run.findings.empty()) << run.findings_text();
    EXPECT_EQ(run.launches, 1);
    EXPECT_TRUE(run.requests.empty()) << "the demos use no shared memory";
    const std::vector<float> result = out.to_vector();
    std::vector<std::uint32_t> got(s.size());
    std::memcpy(got.data(), result.data(), got.size() * sizeof(float));
    EXPECT_TRUE(lesson05::testing::same_bits(
        got, transposes ? lesson05::testing::cpu_transpose(bits, s) : bits,
        transposes ? s.rows : s.cols));
  }
}

TEST(DemoKernelOnCpu, CopyAndNaiveTransposeMoveEveryElement) {
  expect_demo_on_cpu("copy_matrix", lesson05::copy_matrix, false);
  expect_demo_on_cpu("transpose_naive", lesson05::transpose_naive, true);
}

} // namespace
