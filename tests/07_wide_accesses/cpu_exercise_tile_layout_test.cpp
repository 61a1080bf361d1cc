// Part 2 on the CPU: every float4 load of your tile costs its ideal, your phase prediction
// matches, and score_rows4 is as cheap as its twin at full and ragged sizes; the costs with a
// tile that keeps every element where the kernel reads it (a layout that loses data scores
// nothing, however cheap).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"
#include "predictions.hpp"
#include "score_rows/layout_checks.hpp"
#include "score_rows_trace.hpp"

namespace {

using lesson07::ScoreRows;
using lesson07::TileLayout;
using lesson07::testing::misalignment;

/// The first rows of your layout, bank by bank: what a failure shows.
std::string picture() {
  return kit::drawing_text(lesson07::testing::predictions_written(),
                           kit::print_layout(TileLayout{}, 8) + "Draw a step (rows of " +
                               std::to_string(lesson07::kTilePitch / lesson07::kVec) +
                               " float4s): `bank-map --type float4 --index '" +
                               std::to_string(lesson07::kTilePitch / lesson07::kVec) + "*l'`.");
}

TEST(TileLayout, EveryFloat4LoadCostsItsIdeal) {
  const auto misaligned = misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  ASSERT_TRUE((families::score_rows::keeps_every_element<ScoreRows, TileLayout>()));
  // A phase's cost is what kPredictedTilePhaseWavefronts asks: it shows once that is written.
  const bool shown = lesson07::testing::predictions_written();
  const auto phase = [&](const kit::BankReport& r, int p) {
    return kit::count_text(shown, r.phase_wavefronts[p], "");
  };
  kit::Trace loads;
  for (int h = 0; h < ScoreRows::kRowsPerLane; ++h) {
    for (int s = 0; s < ScoreRows::kSteps; ++s) {
      const kit::WarpAccess a = families::score_rows::tile_read<ScoreRows, TileLayout>(h, s);
      const kit::BankReport r = kit::analyze(a);
      ASSERT_TRUE(r.ok()) << kit::to_string(r.error);
      loads.add(kit::SharedOp::load, a, 1,
                "float4 load of rows " + std::to_string(ScoreRows::scored_row(0, h)) + "-" +
                    std::to_string(ScoreRows::scored_row(kit::kWarpSize - 1, h)) + ", columns " +
                    std::to_string(ScoreRows::step_column(s)) + "-" +
                    std::to_string(ScoreRows::step_column(s) + 3) + " (phases " + phase(r, 0) +
                    " + " + phase(r, 1) + " + " + phase(r, 2) + " + " + phase(r, 3) + ")");
    }
  }
  ASSERT_TRUE(kit::at_ideal(loads)) << picture() << kit::counts_note(shown);
}

TEST(TileLayout, PhaseWavefrontsPrediction) {
  const auto misaligned = misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  const kit::BankReport r =
      kit::analyze(families::score_rows::tile_read<ScoreRows, TileLayout>(0, 0));
  ASSERT_EQ(r.phases, 4);
  KIT_EXPECT_PREDICTION(lesson07::kPredictedTilePhaseWavefronts, r.phase_wavefronts[0],
                        "lanes 0-7 read rows 0-7 at column 0: with your pitch, which banks do "
                        "their 32 words fall in?");
}

TEST(TileLayout, ScoreRows4AsCheapAsItsTwin) {
  using lesson07::testing::Traces;
  const auto misaligned = misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  ASSERT_TRUE((families::score_rows::keeps_every_element<ScoreRows, TileLayout>()));
  for (auto [rows, cols] : {std::pair{1000, 777},
                            std::pair{lesson07::kTileRows, lesson07::kTileDim}, std::pair{1, 5}}) {
    ASSERT_TRUE(kit::at_ideal(Traces::exercise(rows, cols)))
        << rows << " x " << cols << ": score_rows4 must cost what its twin costs\n"
        << picture();
    const double ratio = Traces::model_ratio(rows, cols);
    EXPECT_TRUE(kit::prediction_equals(ratio, 1.0))
        << rows << " x " << cols << ": the model says score_rows4 spends "
        << kit::count_text(lesson07::testing::predictions_written(), ratio, "x")
        << " the wavefronts of its twin";
  }
}

} // namespace
