// Part 2 on the CPU: the bank model over every column read and every pair store of your tile,
// and over the whole of score_rows: every access at its ideal, fewer wavefronts than the best
// padding.
#include <gtest/gtest.h>

#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows_trace.hpp"

namespace {

using lesson08::kTileDim;

TEST(TileLayout, EveryColumnIsOneWavefront) {
  for (int c = 0; c < kTileDim; ++c) {
    const kit::BankReport r = kit::analyze(kit::warp_access(lesson08::TileLayout{}, [&](int lane) {
      return kit::Coord{lane, c};
    }));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.wavefronts, 1) << "column " << c << " costs " << r.wavefronts
                               << " wavefronts: lanes 0, 1, 2, 3 read banks " << r.lanes[0].bank
                               << ", " << r.lanes[1].bank << ", " << r.lanes[2].bank << ", "
                               << r.lanes[3].bank
                               << ". Which bits of the offset must the row change so that 32 "
                                  "rows meet 32 banks?";
    if (r.wavefronts != 1) {
      return; // every column tells the same story
    }
  }
}

TEST(TileLayout, ScoreRowsAtItsIdeal) {
  for (auto [rows, cols] : {std::pair{1000, 777}, std::pair{kTileDim, kTileDim}}) {
    const kit::Trace trace = lesson08::testing::exercise_trace(rows, cols);
    const kit::SharedCounts model = trace.expected();
    const kit::SharedCounts ideal = trace.ideal();
    EXPECT_EQ(model.load_wavefronts, ideal.load_wavefronts)
        << rows << " x " << cols << ": the loads of score_rows cost more than their ideal ("
        << model.load_wavefronts_per_request() << " wavefronts per request):\n"
        << trace.compacted().describe();
    EXPECT_EQ(model.store_wavefronts, ideal.store_wavefronts)
        << rows << " x " << cols << ": the stores of score_rows cost more than their ideal ("
        << model.store_wavefronts_per_request() << " wavefronts per request):\n"
        << trace.compacted().describe();
  }
}

TEST(TileLayout, FewerWavefrontsThanTheBestPadding) {
  const double ratio = lesson08::testing::model_ratio(kTileDim, kTileDim);
  EXPECT_LT(ratio, 1.0) << "the model says score_rows spends " << ratio
                        << "x the wavefronts of its twin (rows 34 floats apart, whose column "
                           "reads cost 2): a swizzle should beat every padding here";
}

} // namespace
