// Part 3 timed: once every access costs its ideal, correlate is as fast as its conflict-free
// twin (model ratio 1: the band is 0.95-1.05).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "correlate_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

TEST(CorrelateSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  const int n = lesson02::testing::saturating_size();
  const double ratio = lesson02::testing::model_ratio(n);
  ASSERT_DOUBLE_EQ(ratio, 1.0) << "the model says correlate spends " << ratio
                               << "x the wavefronts of its twin: fix the layout first";
  kit::DeviceBuffer<float2> d_x(n), d_y(n);
  d_x.fill_bytes(0);
  const lesson02::Taps h{};
  using lesson02::testing::launch;
  const kit::Launch a = launch("correlate", lesson02::correlate_kernel(), [&](cudaStream_t s) {
    lesson02::correlate(d_x.get(), d_y.get(), n, h, s);
  });
  const kit::Launch b =
      launch("correlate_twin", lesson02::correlate_twin_kernel(),
             [&](cudaStream_t s) { lesson02::correlate_twin(d_x.get(), d_y.get(), n, h, s); });
  KIT_EXPECT_SLOWDOWN(a, b, ratio);
}

} // namespace
