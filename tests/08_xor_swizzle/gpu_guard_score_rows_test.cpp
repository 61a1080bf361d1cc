// score_rows and its twin on the GPU against the CPU reference, bit for bit (the same fmaf
// chain), on fresh random data, for shapes that are not multiples of the tile, into poisoned
// outputs. A pair stored unswapped where the layout swaps it reads two values from each
// other's place: a different sum. The starter is slow but right; keep it right.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/testing_score_rows.hpp"
#include "score_rows_reference.hpp"

namespace {

/// Not multiples of the tile; kit::testing::for_each_random_problem adds 4099 x 300 (drops
/// 1000 x 777 in small mode).
const std::vector<std::pair<int, int>> kShapes = {{1, 1},   {1, 33},  {31, 33}, {33, 31},
                                                  {32, 32}, {64, 96}, {100, 1}, {1000, 777}};

template <class ScoreRows>
void expect_exact(const std::string& name, const ScoreRows& score_rows) {
  kit::testing::for_each_random_problem(
      kShapes, lesson08::kQueries, score_rows,
      [&](const std::vector<float>& rows, int n_rows, int n_cols, const std::vector<float>& queries,
          const std::vector<float>& got) {
        const std::vector<float> want = lesson08::testing::reference(rows, n_rows, n_cols, queries);
        for (std::size_t i = 0; i < got.size(); ++i) {
          ASSERT_EQ(0, std::memcmp(&got[i], &want[i], sizeof(float)))
              << name << ": " << n_rows << " x " << n_cols << ", query " << i / n_rows << ", row "
              << i % n_rows << ": got " << got[i] << ", the CPU's fmaf chain gives " << want[i];
        }
      });
}

TEST(ScoreRows, ExactOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_exact("score_rows", [](const float* r, int nr, int nc, const float* q, float* s) {
    lesson08::score_rows(r, nr, nc, q, s);
  });
}

TEST(ScoreRows, TwinExactOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_exact("score_rows_twin", [](const float* r, int nr, int nc, const float* q, float* s) {
    lesson08::score_rows_twin(r, nr, nc, q, s);
  });
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers; no columns score 0.
TEST(ScoreRows, EmptyInputs) {
  KIT_REQUIRE_GPU();
  lesson08::score_rows(nullptr, 0, 0, nullptr, nullptr);
  lesson08::score_rows_twin(nullptr, 0, 17, nullptr, nullptr);
  constexpr int kRows = 45;
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson08::kQueries) * kRows);
  d_scores.fill_bytes(0xff);
  lesson08::score_rows(nullptr, kRows, 0, nullptr, d_scores.get());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  for (float s : d_scores.download()) {
    ASSERT_EQ(s, 0.0f) << "a row with no columns scores 0";
  }
}

} // namespace
