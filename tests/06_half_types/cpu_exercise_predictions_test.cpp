// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/pattern.hpp"
#include "kit/prediction.hpp"

namespace {

TEST(Predictions, HalfStrideOne) {
  KIT_EXPECT_PREDICTION(lesson06::kPredictedHalfStrideOneWavefronts,
                        kit::wavefronts(lesson06::half_stride_one_demo().access),
                        "lanes 2k and 2k + 1 read the two halves of word k: do they conflict?");
}

TEST(Predictions, HalfStrideTwo) {
  KIT_EXPECT_PREDICTION(lesson06::kPredictedHalfStrideTwoWavefronts,
                        kit::wavefronts(lesson06::half_stride_two_demo().access),
                        "lane l reads half 2 l: which word is that?");
}

TEST(Predictions, HalfColumn) {
  KIT_EXPECT_PREDICTION(
      lesson06::kPredictedHalfColumnWavefronts,
      kit::wavefronts(lesson06::half_column_demo().access),
      "lane l reads half 32 l, byte 64 l: which banks, and how many words in each?");
}

TEST(Predictions, FloatColumn) {
  KIT_EXPECT_PREDICTION(lesson06::kPredictedFloatColumnWavefronts,
                        kit::wavefronts(lesson06::float_column_demo().access),
                        "lane l reads float 32 l, byte 128 l");
}

TEST(Predictions, HalfStride64) {
  KIT_EXPECT_PREDICTION(lesson06::kPredictedHalfStride64Wavefronts,
                        kit::wavefronts(lesson06::half_stride_64_demo().access),
                        "lane l reads half 64 l, byte 128 l: compare with the float column");
}

TEST(Predictions, HalfColumnSlowdown) {
  KIT_EXPECT_PREDICTION(
      lesson06::kPredictedHalfColumnSlowdown,
      kit::model_ratio(lesson06::half_column_demo(), lesson06::half_stride_one_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

TEST(Predictions, FloatColumnSlowdown) {
  KIT_EXPECT_PREDICTION(
      lesson06::kPredictedFloatColumnSlowdown,
      kit::model_ratio(lesson06::float_column_demo(), lesson06::float_stride_one_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

} // namespace
