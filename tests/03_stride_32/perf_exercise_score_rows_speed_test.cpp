// Part 2 timed: with a conflict-free tile, score_rows is as fast as its twin (model ratio 1:
// the band is 0.95-1.05).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

TEST(ScoreRowsSpeed, AsFastAsTheConflictFreeTwin) {
  KIT_REQUIRE_TIMING();
  const auto [n_rows, n_cols] = lesson03::testing::saturating_shape();
  const double ratio = lesson03::testing::model_ratio(n_rows, n_cols);
  ASSERT_DOUBLE_EQ(ratio, 1.0) << "the model says score_rows spends " << ratio
                               << "x the wavefronts of its twin: fix the tile layout first";
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
  KIT_EXPECT_SLOWDOWN(a, b, ratio);
}

} // namespace
