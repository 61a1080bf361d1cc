// The demos (demo.cu: the copy and the naive transpose) on the CPU: they move every element,
// with no race, no bounds error and no shared-memory access at all.
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>

#include "cpu_matrix_run.hpp"
#include "matrix_check.hpp"

namespace {

using lesson05::testing::Shape;

void expect_demo_on_cpu(const char* name, lesson05::MatrixOp op, bool transposes) {
  for (const Shape s : lesson05::testing::kKernelShapes) {
    SCOPED_TRACE(std::string(name) + " on a " + s.name() + " matrix");
    const lesson05::testing::CpuMatrixRun r = lesson05::testing::run_on_cpu(name, op, s);
    ASSERT_TRUE(r.run.findings.empty()) << r.run.findings_text();
    EXPECT_EQ(r.run.launches, 1);
    EXPECT_TRUE(r.run.requests.empty()) << "the demos use no shared memory";
    EXPECT_TRUE(lesson05::testing::same_bits(
        r.out, transposes ? lesson05::testing::cpu_transpose(r.in, s) : r.in,
        transposes ? s.rows : s.cols));
  }
}

TEST(DemoKernelOnCpu, CopyAndNaiveTransposeMoveEveryElement) {
  expect_demo_on_cpu("copy_matrix", lesson05::copy_matrix, false);
  expect_demo_on_cpu("transpose_naive", lesson05::transpose_naive, true);
}

} // namespace
