// Part 1: your predictions, checked by the bank model (no GPU needed). A tile row is 32
// consecutive floats; a column of a tile whose rows are P floats apart is lane x at float
// x * P.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

/// A column read of a tile whose rows are `pitch` floats apart: lane x at float x * pitch.
kit::WarpAccess column_read(unsigned pitch) {
  return kit::strided_access(sizeof(float), pitch);
}

TEST(Predictions, RowStore) {
  KIT_EXPECT_PREDICTION(
      lesson05::kPredictedRowStoreWavefronts,
      kit::wavefronts(kit::strided_access(sizeof(float), 1), kit::SharedOp::store),
      "a warp stores 32 consecutive floats: how many different words does any bank get?");
}

TEST(Predictions, ColumnReadPitch32) {
  KIT_EXPECT_PREDICTION(lesson05::kPredictedColumnReadPitch32Wavefronts,
                        kit::wavefronts(column_read(32)),
                        "lane x reads word 32 x + y: which bank is that, for every lane?");
}

TEST(Predictions, ColumnReadPitch33) {
  KIT_EXPECT_PREDICTION(lesson05::kPredictedColumnReadPitch33Wavefronts,
                        kit::wavefronts(column_read(33)),
                        "lane x reads word 33 x + y: which bank is that, and do two lanes share "
                        "one?");
}

TEST(Predictions, ColumnReadPitch34) {
  KIT_EXPECT_PREDICTION(
      lesson05::kPredictedColumnReadPitch34Wavefronts, kit::wavefronts(column_read(34)),
      "lane x reads word 34 x + y: which bank is that, and which lanes share one?");
}

} // namespace
