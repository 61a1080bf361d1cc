// score_rows timed against its conflict-free twin (same block, same shared buffer, same
// occupancy): the slowdown is the one the model predicts from the two traces, whatever the
// layout (about 20x for the starter, 1x once it is conflict-free).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

TEST(ScoreRowsSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  cudaFuncAttributes mine{}, twin{};
  CUDA_CHECK(cudaFuncGetAttributes(&mine, lesson03::score_rows_kernel()));
  CUDA_CHECK(cudaFuncGetAttributes(&twin, lesson03::score_rows_twin_kernel()));
  ASSERT_EQ(mine.sharedSizeBytes, twin.sharedSizeBytes) << "keep the shared buffer as it is";
  const auto [n_rows, n_cols] = lesson03::testing::saturating_shape();
  kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(n_rows) * n_cols);
  kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(lesson03::kQueries) * n_cols);
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson03::kQueries) * n_rows);
  d_rows.fill_bytes(0);
  d_queries.fill_bytes(0);
  using lesson03::testing::launch;
  const kit::Launch a = launch("score_rows", lesson03::score_rows_kernel(), [&](cudaStream_t s) {
    lesson03::score_rows(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get(), s);
  });
  const kit::Launch b =
      launch("score_rows_twin", lesson03::score_rows_twin_kernel(), [&](cudaStream_t s) {
        lesson03::score_rows_twin(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get(), s);
      });
  KIT_EXPECT_SLOWDOWN(a, b, lesson03::testing::model_ratio(n_rows, n_cols));
}

} // namespace
