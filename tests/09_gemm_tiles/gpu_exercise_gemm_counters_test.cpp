// Part 2 on the GPU: the counters read gemm_exercise's shared loads at the twin's cost: every
// B fragment read at its ideal.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "gemm_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/testing.hpp"

namespace {

class GemmExerciseCounters : public kit::testing::CounterTest {};

TEST_F(GemmExerciseCounters, LoadsCostWhatTheTwinsDo) {
  constexpr int kM = 300, kN = 260, kK = 77;
  const kit::Trace twin = lesson09::testing::twin_trace(kM, kN, kK);
  KIT_REQUIRE_VERIFIED_RULES(twin);
  kit::DeviceBuffer<float> d_a(static_cast<std::size_t>(kM) * kK);
  kit::DeviceBuffer<float> d_b(static_cast<std::size_t>(kK) * kN);
  kit::DeviceBuffer<float> d_c(static_cast<std::size_t>(kM) * kN);
  d_a.fill_bytes(0);
  d_b.fill_bytes(0);
  const kit::SharedCounters got = session().measure(
      [&] { lesson09::gemm_exercise(d_a.get(), d_b.get(), d_c.get(), kM, kN, kK); });
  const kit::SharedCounts want = twin.expected();
  kit::testing::report("gemm_exercise against the twin's model", got, want);
  EXPECT_EQ(got.sass.load_requests, want.load_requests)
      << "gemm_exercise issues another number of shared loads than the twin";
  EXPECT_EQ(got.sass.load_wavefronts, want.load_wavefronts)
      << "gemm_exercise's shared loads take " << got.sass.load_wavefronts_per_request()
      << " wavefronts per request, the twin's " << want.load_wavefronts_per_request()
      << ": a B fragment read still conflicts (the CPU test FragmentColumns."
         "EveryFloat4ReadAtItsIdeal draws which lanes share a bank)";
}

} // namespace
