// Part 3 on the GPU: once fixed, the counters read one wavefront per request for every
// shared-memory access of center_blocks.
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "center_blocks_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class CenterBlocksCounters : public kit::testing::CounterTest {};

TEST_F(CenterBlocksCounters, OneWavefrontPerRequest) {
  constexpr int n = lesson04::kCenterBlockThreads * 64;
  kit::DeviceBuffer<float> d_in(n), d_out(n);
  d_in.fill_bytes(0);
  const kit::Trace trace = lesson04::testing::center_trace(n);
  const kit::SharedCounters c =
      session().measure([&] { lesson04::center_blocks(d_in.get(), d_out.get(), n); });
  kit::testing::report("center_blocks", c, trace.expected());
  const kit::SharedCounts ideal = trace.ideal();
  EXPECT_EQ(c.sass.load_requests, ideal.load_requests);
  EXPECT_EQ(c.sass.load_wavefronts, ideal.load_wavefronts)
      << "a load of center_blocks conflicts: " << c.sass.load_wavefronts << " wavefronts for "
      << c.sass.load_requests << " requests";
  EXPECT_EQ(c.sass.store_wavefronts, ideal.store_wavefronts)
      << "a store of center_blocks conflicts: " << c.sass.store_wavefronts << " wavefronts for "
      << c.sass.store_requests << " requests";
}

} // namespace
