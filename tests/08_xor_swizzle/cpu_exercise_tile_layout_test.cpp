// Part 2 on the CPU: the bank model over every column read and every pair store of your tile,
// and over the whole of score_rows: every access at its ideal, fewer wavefronts than the best
// padding.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows_trace.hpp"

namespace {

using lesson08::kTileDim;

/// The first rows of your layout, bank by bank: what a failure shows.
std::string picture() {
  return kit::print_layout(lesson08::TileLayout{}, 4) +
         "Which bits of the offset must the row change so that 32 rows meet 32 banks?";
}

TEST(TileLayout, EveryColumnIsOneWavefront) {
  kit::Trace columns; // lane l reads row l of column c
  for (int c = 0; c < kTileDim; ++c) {
    const kit::WarpAccess a = kit::warp_access(lesson08::TileLayout{}, [&](int lane) {
      return kit::Coord{lane, c};
    });
    ASSERT_TRUE(kit::analyze(a).ok());
    columns.add(kit::SharedOp::load, a, 1, "read of column " + std::to_string(c));
  }
  ASSERT_TRUE(kit::at_ideal(columns)) << picture();
}

TEST(TileLayout, ScoreRowsAtItsIdeal) {
  for (auto [rows, cols] : {std::pair{1000, 777}, std::pair{kTileDim, kTileDim}}) {
    const kit::Trace trace = lesson08::testing::Traces::exercise(rows, cols);
    ASSERT_TRUE(kit::at_ideal(trace)) << rows << " x " << cols << ": score_rows\n"
                                      << trace.compacted().describe() << picture();
  }
}

TEST(TileLayout, FewerWavefrontsThanTheBestPadding) {
  const double ratio = lesson08::testing::Traces::model_ratio(kTileDim, kTileDim);
  EXPECT_LT(ratio, 1.0) << "the model says score_rows spends " << ratio
                        << "x the wavefronts of its twin (rows 34 floats apart, whose column "
                           "reads cost 2): a swizzle should beat every padding here";
}

} // namespace
