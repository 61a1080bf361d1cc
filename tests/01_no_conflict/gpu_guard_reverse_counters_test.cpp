// The bank model predicts reverse_blocks exactly, whatever its layout: the counters equal
// the trace built from the kernel's own layout (the starter's layout included).
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "reverse_trace.hpp"

namespace {

class ReverseTrace : public kit::testing::CounterTest {};

TEST_F(ReverseTrace, CountersEqualTheModel) {
  for (int n : {lesson01::kBlockThreads * 64, lesson01::kBlockThreads * 3 + 77, 45}) {
    kit::DeviceBuffer<float> d_in(n), d_out(n);
    d_in.fill_bytes(0);
    expect_counts("reverse_blocks n=" + std::to_string(n), lesson01::testing::reverse_trace(n),
                  [&] { lesson01::reverse_blocks(d_in.get(), d_out.get(), n); });
  }
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  lesson01::reverse_blocks(nullptr, nullptr, 0);
  lesson01::reverse_blocks(nullptr, nullptr, -3);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
