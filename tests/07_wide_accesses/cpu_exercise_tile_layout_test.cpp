// Part 2 on the CPU: every float4 load of your tile costs its ideal (one wavefront per phase), your
// phase prediction matches, and score_rows4 is as cheap as its twin at full and ragged sizes.
#include <gtest/gtest.h>

#include <utility>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"
#include "score_rows4_trace.hpp"

namespace {

using lesson07::TileLayout;

TEST(TileLayout, EveryFloat4LoadCostsItsIdeal) {
  const auto misaligned = lesson07::testing::misalignment<TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  for (int h = 0; h < lesson07::kRowsPerLane; ++h) {
    for (int s = 0; s < lesson07::kSteps; ++s) {
      const kit::BankReport r = kit::analyze(lesson07::testing::tile_read<TileLayout>(h, s));
      ASSERT_TRUE(r.ok()) << kit::to_string(r.error);
      EXPECT_EQ(r.wavefronts, r.ideal)
          << "the float4 load of rows " << lesson07::scored_row(0, h) << "-"
          << lesson07::scored_row(kit::kWarpSize - 1, h) << ", columns " << lesson07::step_column(s)
          << "-" << lesson07::step_column(s) + 3 << " costs " << r.wavefronts
          << " wavefronts (ideal " << r.ideal << "): phases " << r.phase_wavefronts[0] << " + "
          << r.phase_wavefronts[1] << " + " << r.phase_wavefronts[2] << " + "
          << r.phase_wavefronts[3] << "; lanes 0, 1, 2 of the first phase start in banks "
          << r.lanes[0].bank << ", " << r.lanes[1].bank << ", " << r.lanes[2].bank
          << ". Draw it (rows of " << lesson07::kTilePitch / lesson07::kVec
          << " float4s): `bank-map --type float4 --index '" << lesson07::kTilePitch / lesson07::kVec
          << "*l + " << lesson07::step_column(s) / lesson07::kVec << "'`.";
      if (r.wavefronts != r.ideal) {
        return; // every load tells the same story
      }
    }
  }
}

TEST(TileLayout, PhaseWavefrontsPrediction) {
  const auto misaligned = lesson07::testing::misalignment<TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  const kit::BankReport r = kit::analyze(lesson07::testing::tile_read<TileLayout>(0, 0));
  ASSERT_EQ(r.phases, 4);
  KIT_EXPECT_PREDICTION(lesson07::kPredictedTilePhaseWavefronts, r.phase_wavefronts[0],
                        "lanes 0-7 read rows 0-7 at column 0: with your pitch, which banks do "
                        "their 32 words fall in?");
}

TEST(TileLayout, ScoreRows4AsCheapAsItsTwin) {
  const auto misaligned = lesson07::testing::misalignment<TileLayout>();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  for (auto [rows, cols] : {std::pair{1000, 777},
                            std::pair{lesson07::kTileRows, lesson07::kTileDim}, std::pair{1, 5}}) {
    const kit::SharedCounts model = lesson07::testing::exercise_trace(rows, cols).expected();
    const kit::SharedCounts ideal = lesson07::testing::exercise_trace(rows, cols).ideal();
    EXPECT_EQ(model.load_wavefronts, ideal.load_wavefronts)
        << rows << " x " << cols << ": the loads of score_rows4 cost more than their ideal ("
        << model.load_wavefronts_per_request() << " wavefronts per request, ideal "
        << ideal.load_wavefronts_per_request() << ")";
    EXPECT_EQ(model.store_wavefronts, ideal.store_wavefronts)
        << rows << " x " << cols << ": the stores of score_rows4 cost more than their ideal ("
        << model.store_wavefronts_per_request() << " wavefronts per request)";
    EXPECT_DOUBLE_EQ(lesson07::testing::model_ratio(rows, cols), 1.0)
        << rows << " x " << cols << ": the model says score_rows4 spends "
        << lesson07::testing::model_ratio(rows, cols) << "x the wavefronts of its twin";
  }
}

} // namespace
