// Part 2 on the GPU: the counters read every load and store of score_rows4 at its ideal:
// 4 wavefronts per tile float4 load, 2 per feature float4 load (one address: two merged
// phases), 1 per 4-byte store. Skips where the 16-byte rules are not verified (sm_90 only).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows4_trace.hpp"

namespace {

class ScoreRows4Counters : public kit::testing::CounterTest {};

TEST_F(ScoreRows4Counters, EveryRequestAtItsIdeal) {
  const auto misaligned = lesson07::testing::misalignment<lesson07::TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  constexpr int kRows = 64 * 20 + 7, kCols = 100;
  const kit::Trace trace = lesson07::testing::exercise_trace(kRows, kCols);
  KIT_REQUIRE_VERIFIED_RULES(trace);
  kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(kRows) * kCols);
  kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(lesson07::kQueries) * kCols);
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson07::kQueries) * kRows);
  d_rows.fill_bytes(0);
  d_queries.fill_bytes(0);
  expect_ideal(
      "score_rows4", trace,
      [&] { lesson07::score_rows4(d_rows.get(), kRows, kCols, d_queries.get(), d_scores.get()); },
      "the float4 loads", "the staging stores");
}

} // namespace
