// Part 2 on the CPU: the bank model over every float4 fragment read of your assignment gives
// the width's ideal, and the whole kernel costs what its conflict-free twin costs.
#include <gtest/gtest.h>

#include <array>

#include <demo.hpp>
#include <exercise.hpp>

#include "gemm_trace.hpp"
#include "kit/bank_model.hpp"

namespace {

using namespace lesson09;

TEST(FragmentColumns, EveryFloat4ReadAtItsIdeal) {
  ASSERT_TRUE(float4_fragments<FragmentColumns>())
      << "a float4 load at col(t, 4 q) must read elements 4 q ... 4 q + 3 (guard test "
         "FragmentColumns.Float4ReadsTheFragment says where it breaks)";
  for (int q = 0; q < kFragN / 4; ++q) {
    const kit::BankReport r =
        kit::analyze(b_float4_read_demo<FragmentColumns>("FragmentColumns", q).access);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.wavefronts, r.ideal)
        << "the float4 read q = " << q << " costs " << r.wavefronts << " wavefronts (ideal "
        << r.ideal << "). Lanes 0-7 (one phase) read columns " << FragmentColumns::col(0, 4 * q)
        << ", " << FragmentColumns::col(1, 4 * q) << ", " << FragmentColumns::col(2, 4 * q)
        << ", ... : banks " << r.lanes[0].bank << ", " << r.lanes[1].bank << ", " << r.lanes[2].bank
        << ", ... Draw it: `bank-map --type float4 --index '...'` with the "
        << "float4 index col(l % 16, " << 4 * q << ") / 4.";
  }
}

TEST(FragmentColumns, KernelAsCheapAsTheTwin) {
  for (const auto& [m, n, k] :
       {std::array{128, 128, 8}, std::array{1000, 777, 301}, std::array{4096, 4096, 4096}}) {
    const kit::SharedCounts mine = lesson09::testing::exercise_trace(m, n, k).expected();
    const kit::SharedCounts twin = lesson09::testing::twin_trace(m, n, k).expected();
    EXPECT_EQ(mine.load_requests, twin.load_requests);
    EXPECT_EQ(mine.load_wavefronts, twin.load_wavefronts)
        << m << " x " << n << " x " << k << ": the model says gemm_exercise's loads take "
        << mine.load_wavefronts_per_request() << " wavefronts per request, the twin's "
        << twin.load_wavefronts_per_request();
  }
}

} // namespace
