// Part 2 on the GPU: the counters read one wavefront per request for every Horner step and
// staging store of eval_polys.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "eval_polys_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class EvalPolysCounters : public kit::testing::CounterTest {};

TEST_F(EvalPolysCounters, OneWavefrontPerRequest) {
  constexpr int kPolys = 16 * 20 + 5, kPoints = 16 * 30 + 3;
  kit::DeviceBuffer<float> d_coefs(static_cast<std::size_t>(kPolys) * lesson04::kCoefs);
  kit::DeviceBuffer<float> d_points(kPoints);
  kit::DeviceBuffer<float> d_out(static_cast<std::size_t>(kPolys) * kPoints);
  d_coefs.fill_bytes(0);
  d_points.fill_bytes(0);
  const kit::Trace trace = lesson04::testing::exercise_trace(kPolys, kPoints);
  const kit::SharedCounters c = session().measure(
      [&] { lesson04::eval_polys(d_coefs.get(), kPolys, d_points.get(), kPoints, d_out.get()); });
  kit::testing::report("eval_polys", c, trace.expected());
  const kit::SharedCounts ideal = trace.ideal();
  EXPECT_EQ(c.sass.load_requests, ideal.load_requests)
      << "the kernel does not issue the loads the trace describes";
  EXPECT_EQ(c.sass.load_wavefronts, ideal.load_wavefronts)
      << "the Horner steps conflict: " << c.sass.load_wavefronts << " wavefronts for "
      << c.sass.load_requests << " requests (" << c.sass.load_wavefronts_per_request()
      << " per request)";
  EXPECT_EQ(c.sass.store_wavefronts, ideal.store_wavefronts)
      << "the staging stores conflict: " << c.sass.store_wavefronts << " wavefronts for "
      << c.sass.store_requests << " requests";
}

} // namespace
