// score_rows4 and its twin on the GPU: the CPU reference on fresh random data, for shapes
// that are not multiples of the tile, into poisoned outputs. The starter is slow but right;
// keep it right. Runs on every GPU: nothing here depends on the bank rules.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows4_reference.hpp"
#include "score_rows4_trace.hpp"

namespace {

using ScoreRows = std::function<void(const float*, int, int, const float*, float*)>;

void expect_matches_the_cpu(const std::string& name, const ScoreRows& score_rows) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<std::pair<int, int>> shapes = {{1, 1},   {1, 33},  {31, 35}, {33, 31},
                                             {64, 32}, {65, 96}, {100, 1}, {1000, 777}};
  if (kit::small_mode()) {
    shapes.pop_back();
  } else {
    shapes.push_back({4099, 300});
  }
  for (const auto& [n_rows, n_cols] : shapes) {
    const std::vector<float> rows = kit::testing::random_floats(
        static_cast<std::size_t>(n_rows) * n_cols, seed + static_cast<std::uint64_t>(n_rows));
    const std::vector<float> queries =
        kit::testing::random_floats(static_cast<std::size_t>(lesson07::kQueries) * n_cols,
                                    seed ^ static_cast<std::uint64_t>(n_cols));
    kit::DeviceBuffer<float> d_rows(rows), d_queries(queries);
    kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson07::kQueries) * n_rows);
    d_scores.fill_bytes(0xff); // NaN poison: a score never written cannot pass
    score_rows(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get());
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = d_scores.download();
    const std::vector<lesson07::testing::Expected> want =
        lesson07::testing::reference(rows, n_rows, n_cols, queries);
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i].value, want[i].tol)
          << name << ": " << n_rows << " x " << n_cols << ", query " << i / n_rows << ", row "
          << i % n_rows;
    }
  }
}

TEST(ScoreRows4, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  const auto misaligned = lesson07::testing::misalignment<lesson07::TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  expect_matches_the_cpu("score_rows4", [](const float* r, int nr, int nc, const float* q,
                                           float* s) { lesson07::score_rows4(r, nr, nc, q, s); });
}

TEST(ScoreRows4, TwinMatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("score_rows4_twin",
                         [](const float* r, int nr, int nc, const float* q, float* s) {
                           lesson07::score_rows4_twin(r, nr, nc, q, s);
                         });
}

TEST(ScoreRows4, NoColumnsScoreZero) {
  KIT_REQUIRE_GPU();
  const auto misaligned = lesson07::testing::misalignment<lesson07::TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  constexpr int kRows = 45;
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson07::kQueries) * kRows);
  d_scores.fill_bytes(0xff);
  lesson07::score_rows4(nullptr, kRows, 0, nullptr, d_scores.get());
  CUDA_CHECK(cudaDeviceSynchronize());
  for (float s : d_scores.download()) {
    ASSERT_EQ(s, 0.0f) << "a row with no columns scores 0";
  }
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  lesson07::score_rows4_twin(nullptr, 0, 17, nullptr, nullptr);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
