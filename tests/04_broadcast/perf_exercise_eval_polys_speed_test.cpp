// Part 2 timed: with a conflict-free table, eval_polys is as fast as its twin (model ratio 1:
// the band is 0.95-1.05).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "eval_polys_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

TEST(EvalPolysSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  const auto [n_polys, n_points] = lesson04::testing::saturating_shape();
  const double ratio = lesson04::testing::model_ratio(n_polys, n_points);
  ASSERT_DOUBLE_EQ(ratio, 1.0) << "the model says eval_polys spends " << ratio
                               << "x the wavefronts of its twin: fix the table layout first";
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
  KIT_EXPECT_SLOWDOWN(a, b, ratio);
}

} // namespace
