// score_rows4 and its twin on the GPU: the CPU reference on fresh random data, for shapes
// that are not multiples of the tile, into poisoned outputs. The starter is slow but right;
// keep it right. Runs on every GPU: nothing here depends on the bank rules.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/testing_score_rows.hpp"
#include "score_rows4_trace.hpp"

namespace {

/// Not multiples of the tile; kit::testing::for_each_random_problem adds 4099 x 300 (drops
/// 1000 x 777 in small mode).
const std::vector<std::pair<int, int>> kShapes = {{1, 1},   {1, 33},  {31, 35}, {33, 31},
                                                  {64, 32}, {65, 96}, {100, 1}, {1000, 777}};

template <class ScoreRows>
void expect_matches_the_cpu(const std::string& name, const ScoreRows& score_rows) {
  kit::testing::expect_scores_near_reference(name, kShapes, lesson07::kQueries, score_rows);
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
