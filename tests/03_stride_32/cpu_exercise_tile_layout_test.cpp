// Part 2 on the CPU: the bank model over every column of your tile layout gives 1 wavefront,
// and every instruction of score_rows costs its ideal: as cheap as the twin; each with a tile
// that keeps every element (a layout that loses data scores nothing, however cheap). A failure
// is reported at TileLayout's line in exercise.hpp.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/testing_exercise.hpp"
#include "predictions.hpp"
#include "score_rows/layout_checks.hpp"
#include "score_rows/trace.hpp"
#include "score_rows_trace.hpp"

namespace {

using lesson03::kTileDim;
using lesson03::ScoreRows;

/// The first rows of your layout, bank by bank: what a failure shows.
std::string picture() {
  return kit::drawing_text(lesson03::testing::predictions_written(),
                           kit::print_layout(lesson03::TileLayout{}, 4) +
                               "Draw a column: `bank-map --type float --layout " +
                               std::to_string(lesson03::kTileRows) + "x" +
                               std::to_string(lesson03::kTilePitch) + " --column 0`.");
}

TEST(TileLayout, EveryColumnIsOneWavefront) {
  KIT_ASSERT_AT_EXERCISE(
      "TileLayout", (families::score_rows::keeps_every_element<ScoreRows, lesson03::TileLayout>()));
  kit::Trace columns; // the warp's h-th read of column c: lane l reads row scored_row(l, h)
  for (int h = 0; h < ScoreRows::kRowsPerLane; ++h) {
    for (int c = 0; c < kTileDim; ++c) {
      const kit::WarpAccess a =
          families::score_rows::tile_read<ScoreRows, lesson03::TileLayout>(h, c);
      ASSERT_TRUE(kit::analyze(a).ok());
      columns.add(kit::SharedOp::load, a, 1,
                  "read of column " + std::to_string(c) + ", rows " +
                      std::to_string(ScoreRows::scored_row(0, h)) + "-" +
                      std::to_string(ScoreRows::scored_row(kit::kWarpSize - 1, h)));
    }
  }
  KIT_ASSERT_AT_EXERCISE("TileLayout", kit::at_ideal(columns)) << picture();
}

TEST(TileLayout, ScoreRowsAsCheapAsItsTwin) {
  using lesson03::testing::Traces;
  KIT_ASSERT_AT_EXERCISE(
      "TileLayout", (families::score_rows::keeps_every_element<ScoreRows, lesson03::TileLayout>()));
  for (auto [rows, cols] : {std::pair{1000, 777}, std::pair{kTileDim, kTileDim}}) {
    KIT_ASSERT_AT_EXERCISE("TileLayout", kit::at_ideal(Traces::exercise(rows, cols)))
        << rows << " x " << cols << ": score_rows must cost what its twin costs\n"
        << picture();
    EXPECT_DOUBLE_EQ(Traces::model_ratio(rows, cols), 1.0)
        << rows << " x " << cols << ": the model says score_rows spends "
        << Traces::model_ratio(rows, cols) << "x the wavefronts of its twin";
  }
}

} // namespace
