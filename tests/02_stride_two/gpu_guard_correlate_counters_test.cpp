// The bank model predicts correlate exactly, whatever its layout: the counters equal the
// trace built from the kernel's own tile layout, requests included. Equal requests show
// the kernel issues the accesses the lesson says (the starter: two 4-byte loads per tap, not
// one 8-byte load the compiler merged them into).
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "correlate_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class CorrelateTrace : public kit::testing::CounterTest {};

TEST_F(CorrelateTrace, CountersEqualTheModel) {
  // A float2 pair access (TileLayout::kPairAccess) is an 8-byte access: its rules were measured on
  // sm_90.
  KIT_REQUIRE_VERIFIED_RULES(lesson02::testing::exercise_trace(lesson02::kBlockThreads));
  const lesson02::Taps h{};
  for (int n : {lesson02::kBlockThreads * 64, lesson02::kBlockThreads * 3 + 77, 45}) {
    kit::DeviceBuffer<float2> d_x(n), d_y(n);
    d_x.fill_bytes(0);
    expect_counts("correlate n=" + std::to_string(n), lesson02::testing::exercise_trace(n),
                  [&] { lesson02::correlate(d_x.get(), d_y.get(), n, h); });
    expect_counts("correlate_twin n=" + std::to_string(n), lesson02::testing::twin_trace(n),
                  [&] { lesson02::testing::correlate_twin(d_x.get(), d_y.get(), n, h); });
  }
}

} // namespace
