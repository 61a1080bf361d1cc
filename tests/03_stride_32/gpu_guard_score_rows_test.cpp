// score_rows and its twin on the GPU: the CPU reference on fresh random data, for shapes
// that are not multiples of the tile, into poisoned outputs. The starter is slow but right;
// keep it right.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "twin.hpp"

namespace {

namespace family = families::score_rows::testing;
constexpr int kQueries = lesson03::ScoreRows::kQueries;

TEST(ScoreRows, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  family::expect_near_reference("score_rows", kQueries, lesson03::score_rows);
}

TEST(ScoreRows, TwinMatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  family::expect_near_reference("score_rows_twin", kQueries, lesson03::testing::score_rows_twin);
}

TEST(ScoreRows, NoColumnsScoreZero) {
  KIT_REQUIRE_GPU();
  family::expect_no_columns_score_zero(kQueries, lesson03::score_rows);
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  family::expect_empty_launches_nothing(lesson03::score_rows);
  family::expect_empty_launches_nothing(lesson03::testing::score_rows_twin);
}

} // namespace
