// score_rows and its twin on the GPU: the CPU reference on fresh random data, for shapes
// that are not multiples of the tile, into poisoned outputs. The starter is slow but right;
// keep it right.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/testing_score_rows.hpp"

namespace {

/// Not multiples of the tile; kit::testing::for_each_random_problem adds 4099 x 300 (drops
/// 1000 x 777 in small mode).
const std::vector<std::pair<int, int>> kShapes = {{1, 1},   {1, 33},  {31, 33}, {33, 31},
                                                  {32, 32}, {64, 96}, {100, 1}, {1000, 777}};

template <class ScoreRows>
void expect_matches_the_cpu(const std::string& name, const ScoreRows& score_rows) {
  kit::testing::expect_scores_near_reference(name, kShapes, lesson03::kQueries, score_rows);
}

TEST(ScoreRows, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("score_rows", [](const float* r, int nr, int nc, const float* q,
                                          float* s) { lesson03::score_rows(r, nr, nc, q, s); });
}

TEST(ScoreRows, TwinMatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("score_rows_twin",
                         [](const float* r, int nr, int nc, const float* q, float* s) {
                           lesson03::score_rows_twin(r, nr, nc, q, s);
                         });
}

TEST(ScoreRows, NoColumnsScoreZero) {
  KIT_REQUIRE_GPU();
  constexpr int kRows = 45;
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson03::kQueries) * kRows);
  d_scores.fill_bytes(0xff);
  lesson03::score_rows(nullptr, kRows, 0, nullptr, d_scores.get());
  CUDA_CHECK(cudaDeviceSynchronize());
  for (float s : d_scores.download()) {
    ASSERT_EQ(s, 0.0f) << "a row with no columns scores 0";
  }
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  lesson03::score_rows(nullptr, 0, 0, nullptr, nullptr);
  lesson03::score_rows(nullptr, 0, 17, nullptr, nullptr);
  lesson03::score_rows_twin(nullptr, 0, 17, nullptr, nullptr);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
