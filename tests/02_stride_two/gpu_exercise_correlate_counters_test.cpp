// Part 3 on the GPU: the counters read every request of correlate at its width's ideal
// (1 wavefront for a 4-byte access, 2 for an 8-byte one).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "correlate_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class CorrelateCounters : public kit::testing::CounterTest {};

TEST_F(CorrelateCounters, EveryRequestAtItsIdeal) {
  // A float2 pair access (TileLayout::kPairAccess) is an 8-byte access: its rules were measured on
  // sm_90.
  KIT_REQUIRE_VERIFIED_RULES(lesson02::testing::exercise_trace(lesson02::kBlockThreads));
  const lesson02::Taps h{};
  for (int n : {lesson02::kBlockThreads * 64, lesson02::kBlockThreads * 3 + 77}) {
    kit::DeviceBuffer<float2> d_x(n), d_y(n);
    d_x.fill_bytes(0);
    expect_ideal(
        "correlate n=" + std::to_string(n), lesson02::testing::exercise_trace(n),
        [&] { lesson02::correlate(d_x.get(), d_y.get(), n, h); },
        "the tap loads (TileLayout: kPairAccess, re_offset, im_offset)", "the staging stores");
  }
}

} // namespace
