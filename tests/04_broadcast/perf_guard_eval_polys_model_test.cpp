// eval_polys timed against its conflict-free twin (same block, same table, same occupancy):
// the slowdown is the one the model predicts from the two traces, whatever the layout (about
// 2x for the starter, 1x once it is conflict-free).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "eval_polys_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/testing.hpp"

namespace {

TEST(EvalPolysSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  cudaFuncAttributes mine{}, twin{};
  CUDA_CHECK(cudaFuncGetAttributes(&mine, lesson04::eval_polys_kernel()));
  CUDA_CHECK(cudaFuncGetAttributes(&twin, lesson04::eval_polys_twin_kernel()));
  ASSERT_EQ(mine.sharedSizeBytes, twin.sharedSizeBytes)
      << "keep the table at kTableCapacity floats";
  const auto [n_polys, n_points] = lesson04::testing::saturating_shape();
  kit::DeviceBuffer<float> d_coefs(static_cast<std::size_t>(n_polys) * lesson04::kCoefs);
  kit::DeviceBuffer<float> d_points(n_points);
  kit::DeviceBuffer<float> d_out(static_cast<std::size_t>(n_polys) * n_points);
  d_coefs.fill_bytes(0);
  d_points.fill_bytes(0);
  using lesson04::testing::launch;
  const kit::Launch a = launch("eval_polys", lesson04::eval_polys_kernel(), [&](cudaStream_t s) {
    lesson04::eval_polys(d_coefs.get(), n_polys, d_points.get(), n_points, d_out.get(), s);
  });
  const kit::Launch b =
      launch("eval_polys_twin", lesson04::eval_polys_twin_kernel(), [&](cudaStream_t s) {
        lesson04::eval_polys_twin(d_coefs.get(), n_polys, d_points.get(), n_points, d_out.get(), s);
      });
  KIT_EXPECT_SLOWDOWN(a, b, lesson04::testing::model_ratio(n_polys, n_points));
}

} // namespace
