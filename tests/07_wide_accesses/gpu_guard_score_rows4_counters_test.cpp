// The bank model predicts score_rows4 exactly, whatever its layout: the counters equal the
// trace built from the kernel's own index functions, requests included (a merged or split
// access would show there). Skips where the 16-byte rules are not verified (sm_90 only).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_rows4_trace.hpp"

namespace {

class ScoreRows4Trace : public kit::testing::CounterTest {};

TEST_F(ScoreRows4Trace, CountersEqualTheModel) {
  const auto misaligned = lesson07::testing::misalignment<lesson07::TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  KIT_REQUIRE_VERIFIED_RULES(lesson07::testing::twin_trace(64, 32));
  for (auto [n_rows, n_cols] : {std::pair{64 * 20, 96}, std::pair{1000, 77}}) {
    kit::DeviceBuffer<float> d_rows(static_cast<std::size_t>(n_rows) * n_cols);
    kit::DeviceBuffer<float> d_queries(static_cast<std::size_t>(lesson07::kQueries) * n_cols);
    kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(lesson07::kQueries) * n_rows);
    d_rows.fill_bytes(0);
    d_queries.fill_bytes(0);
    const std::string shape = std::to_string(n_rows) + "x" + std::to_string(n_cols);
    expect_counts("score_rows4 " + shape, lesson07::testing::exercise_trace(n_rows, n_cols), [&] {
      lesson07::score_rows4(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get());
    });
    expect_counts("score_rows4_twin " + shape, lesson07::testing::twin_trace(n_rows, n_cols), [&] {
      lesson07::score_rows4_twin(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get());
    });
  }
}

} // namespace
