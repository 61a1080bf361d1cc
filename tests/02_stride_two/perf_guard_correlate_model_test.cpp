// correlate timed against its conflict-free twin (same block, same tile, same occupancy):
// the slowdown is the one the model predicts from the two traces, whatever the layout
// (about 2x for the starter, 1x once it is conflict-free).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "correlate_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/testing.hpp"

namespace {

TEST(CorrelateSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  cudaFuncAttributes mine{}, twin{};
  CUDA_CHECK(cudaFuncGetAttributes(&mine, lesson02::correlate_kernel()));
  CUDA_CHECK(cudaFuncGetAttributes(&twin, lesson02::correlate_twin_kernel()));
  ASSERT_EQ(mine.sharedSizeBytes, twin.sharedSizeBytes) << "keep the tile at kTileFloats floats";
  const int n = lesson02::testing::saturating_size();
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
  KIT_EXPECT_SLOWDOWN(a, b, lesson02::testing::model_ratio(n));
}

} // namespace
