// score_rows4 and its twin on the GPU: the CPU reference on fresh random data, for shapes
// that are not multiples of the tile, into poisoned outputs. The starter is slow but right;
// keep it right. Runs on every GPU: nothing here depends on the bank rules.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "score_rows/testing.hpp"
#include "score_rows_trace.hpp"

namespace {

namespace family = families::score_rows::testing;
constexpr int kQueries = lesson07::ScoreRows::kQueries;

TEST(ScoreRows, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  family::expect_near_reference("score_rows4", kQueries, lesson07::score_rows4);
}

TEST(ScoreRows, TwinMatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  family::expect_near_reference("score_rows4_twin", kQueries, lesson07::testing::score_rows4_twin);
}

TEST(ScoreRows, NoColumnsScoreZero) {
  KIT_REQUIRE_GPU();
  const auto misaligned = lesson07::testing::misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  family::expect_no_columns_score_zero(kQueries, lesson07::score_rows4);
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  family::expect_empty_launches_nothing(lesson07::testing::score_rows4_twin);
}

} // namespace
