// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

TEST(Predictions, StrideTwoWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson02::kPredictedStrideTwoWavefronts, kit::wavefronts(lesson02::stride_two_demo().access),
      "lane l reads word 2l, in bank 2l mod 32: which lanes share a bank, on which words?");
}

TEST(Predictions, StrideThreeWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson02::kPredictedStrideThreeWavefronts,
      kit::wavefronts(lesson02::stride_three_demo().access),
      "lane l reads word 3l: list the banks 3l mod 32 for l = 0..31. Is any bank repeated?");
}

TEST(Predictions, StrideSixWavefronts) {
  KIT_EXPECT_PREDICTION(lesson02::kPredictedStrideSixWavefronts,
                        kit::wavefronts(lesson02::stride_six_demo().access),
                        "6 = 2 x 3: which of the two factors does 6 share with 32?");
}

TEST(Predictions, StrideTwoSlowdown) {
  KIT_EXPECT_PREDICTION(
      lesson02::kPredictedStrideTwoSlowdown,
      kit::model_ratio(lesson02::stride_two_demo(), lesson02::stride_one_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

} // namespace
