// Parts 2 and 3 on the GPU: the counters read each of your kernels' shared loads at its
// twin's cost: every B fragment read at its ideal.
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "gemm_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/testing.hpp"

namespace {

constexpr int kM = 300, kN = 260, kK = 77;

class GemmExerciseCounters : public kit::testing::CounterTest {
protected:
  /// Measures `gemm` and expects its shared loads to be the twin's, as the counters read them.
  void expect_twins_loads(const std::string& name, lesson09::Gemm gemm, const kit::Trace& twin,
                          const std::string& cpu_test) {
    KIT_REQUIRE_VERIFIED_RULES(twin);
    kit::DeviceBuffer<float> d_a(static_cast<std::size_t>(kM) * kK);
    kit::DeviceBuffer<float> d_b(static_cast<std::size_t>(kK) * kN);
    kit::DeviceBuffer<float> d_c(static_cast<std::size_t>(kM) * kN);
    d_a.fill_bytes(0);
    d_b.fill_bytes(0);
    const kit::SharedCounters got =
        session().measure([&] { gemm(d_a.get(), d_b.get(), d_c.get(), kM, kN, kK, nullptr); });
    const kit::SharedCounts want = twin.expected();
    kit::testing::report(name + " against its twin's model", got, want);
    EXPECT_EQ(got.sass.load_requests, want.load_requests)
        << name << " issues another number of shared loads than its twin";
    EXPECT_TRUE(got.sass.load_wavefronts == want.load_wavefronts)
        << name << "'s shared loads take more wavefronts per request than its twin's"
        << ": a B fragment read still conflicts (the CPU test " << cpu_test
        << " says which lanes share a bank)";
  }
};

TEST_F(GemmExerciseCounters, Part2LoadsCostWhatTheTwinsDo) {
  expect_twins_loads("gemm_exercise", lesson09::gemm_exercise,
                     lesson09::testing::strided_scalar_trace(kM, kN, kK),
                     "FragmentColumns.EveryReadAtItsIdeal");
}

TEST_F(GemmExerciseCounters, Part3LoadsCostWhatTheTwinsDo) {
  expect_twins_loads("gemm_exercise_float4", lesson09::gemm_exercise_float4,
                     lesson09::testing::strided_by_four_trace(kM, kN, kK),
                     "Float4Columns.EveryReadAtItsIdeal");
}

} // namespace
