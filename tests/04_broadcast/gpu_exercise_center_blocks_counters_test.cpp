// Part 3 on the GPU: once fixed, the counters read one wavefront per request for every
// shared-memory access of center_blocks.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "center_blocks_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class CenterBlocksCounters : public kit::testing::CounterTest {};

TEST_F(CenterBlocksCounters, OneWavefrontPerRequest) {
  constexpr int n = lesson04::kCenterBlockThreads * 64;
  kit::DeviceBuffer<float> d_in(n), d_out(n);
  d_in.fill_bytes(0);
  expect_ideal(
      "center_blocks", lesson04::testing::center_trace(n),
      [&] { lesson04::center_blocks(d_in.get(), d_out.get(), n); }, "the loads of center_blocks",
      "the stores of center_blocks");
}

} // namespace
