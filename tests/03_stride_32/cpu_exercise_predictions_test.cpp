// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

TEST(Predictions, ColumnWavefronts) {
  KIT_EXPECT_PREDICTION(lesson03::kPredictedColumnWavefronts,
                        kit::wavefronts(lesson03::column_read_demo().access),
                        "lane l reads word 32 l: which bank is that, for every l?");
}

TEST(Predictions, PaddedColumnWavefronts) {
  KIT_EXPECT_PREDICTION(lesson03::kPredictedPaddedColumnWavefronts,
                        kit::wavefronts(lesson03::padded_column_read_demo().access),
                        "lane l reads word 33 l: (33 l) mod 32 = ?");
}

TEST(Predictions, PaddedRowWavefronts) {
  KIT_EXPECT_PREDICTION(lesson03::kPredictedPaddedRowWavefronts,
                        kit::wavefronts(lesson03::padded_row_read_demo().access),
                        "a row of the padded tile is still 32 consecutive words");
}

TEST(Predictions, ColumnSlowdown) {
  KIT_EXPECT_PREDICTION(
      lesson03::kPredictedColumnSlowdown,
      kit::model_ratio(lesson03::column_read_demo(), lesson03::row_read_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

} // namespace
