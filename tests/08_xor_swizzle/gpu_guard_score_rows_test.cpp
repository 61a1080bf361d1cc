// score_rows and its twin on the GPU against the CPU reference, bit for bit (the same fmaf
// chain), on fresh random data, for shapes that are not multiples of the tile, into poisoned
// outputs. A pair stored unswapped where the layout swaps it reads two values from each
// other's place: a different sum. The starter is slow but right; keep it right.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "twin.hpp"

namespace {

namespace family = families::score_rows::testing;
constexpr int kQueries = lesson08::ScoreRows::kQueries;

TEST(ScoreRows, ExactOnRandomData) {
  KIT_REQUIRE_GPU();
  family::expect_fmaf_chain("score_rows", kQueries, lesson08::score_rows);
}

TEST(ScoreRows, TwinExactOnRandomData) {
  KIT_REQUIRE_GPU();
  family::expect_fmaf_chain("score_rows_twin", kQueries, lesson08::testing::score_rows_twin);
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers; no columns score 0.
TEST(ScoreRows, EmptyInputs) {
  KIT_REQUIRE_GPU();
  family::expect_empty_launches_nothing(lesson08::score_rows);
  family::expect_empty_launches_nothing(lesson08::testing::score_rows_twin);
  family::expect_no_columns_score_zero(kQueries, lesson08::score_rows);
}

} // namespace
