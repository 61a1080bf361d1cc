// Part 2 on the CPU: the bank model over every column of your tile layout gives 1 wavefront,
// and every instruction of score_rows costs its ideal: as cheap as the twin.
#include <gtest/gtest.h>

#include <utility>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows_trace.hpp"

namespace {

using lesson03::kTileDim;

TEST(TileIndex, EveryColumnIsOneWavefront) {
  for (int h = 0; h < lesson03::kRowsPerLane; ++h) {
    for (int c = 0; c < kTileDim; ++c) {
      // The warp's h-th read of column c: lane l reads tile row scored_row(l, h).
      const kit::BankReport r =
          kit::analyze(kit::warp_access(lesson03::TileLayout{}, [&](int lane) {
            return kit::Coord{lesson03::scored_row(lane, h), c};
          }));
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r.wavefronts, 1) << "column " << c << ", rows " << lesson03::scored_row(0, h) << "-"
                                 << lesson03::scored_row(kit::kWarpSize - 1, h) << " costs "
                                 << r.wavefronts << " wavefronts: lanes 0, 1, 2 use banks "
                                 << r.lanes[0].bank << ", " << r.lanes[1].bank << ", "
                                 << r.lanes[2].bank << ". Draw it: `bank-map --type float --layout "
                                 << lesson03::kTileRows << "x" << lesson03::kTilePitch
                                 << " --column " << c << "`.";
      if (r.wavefronts != 1) {
        return; // every column tells the same story
      }
    }
  }
}

TEST(TileIndex, ScoreRowsAsCheapAsItsTwin) {
  for (auto [rows, cols] : {std::pair{1000, 777}, std::pair{kTileDim, kTileDim}}) {
    const kit::SharedCounts model = lesson03::testing::exercise_trace(rows, cols).expected();
    const kit::SharedCounts ideal = lesson03::testing::exercise_trace(rows, cols).ideal();
    EXPECT_EQ(model.load_wavefronts, ideal.load_wavefronts)
        << rows << " x " << cols << ": the loads of score_rows cost more than their ideal ("
        << model.load_wavefronts_per_request() << " wavefronts per request)";
    EXPECT_EQ(model.store_wavefronts, ideal.store_wavefronts)
        << rows << " x " << cols << ": the stores of score_rows cost more than their ideal ("
        << model.store_wavefronts_per_request() << " wavefronts per request)";
    EXPECT_DOUBLE_EQ(lesson03::testing::model_ratio(rows, cols), 1.0)
        << rows << " x " << cols << ": the model says score_rows spends "
        << lesson03::testing::model_ratio(rows, cols) << "x the wavefronts of its twin";
  }
}

} // namespace
