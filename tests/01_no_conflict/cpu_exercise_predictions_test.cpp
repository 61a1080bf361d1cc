// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

TEST(Predictions, StrideOneWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson01::kPredictedStrideOneWavefronts, kit::wavefronts(lesson01::stride_one_demo().access),
      "32 lanes read words 0..31: how many different words does any one bank serve?");
}

TEST(Predictions, Stride33Wavefronts) {
  KIT_EXPECT_PREDICTION(lesson01::kPredictedStride33Wavefronts,
                        kit::wavefronts(lesson01::stride_33_demo().access),
                        "lane l reads word 33 l: which bank is that? (33 l mod 32)");
}

TEST(Predictions, PermutedWavefronts) {
  KIT_EXPECT_PREDICTION(lesson01::kPredictedPermutedWavefronts,
                        kit::wavefronts(lesson01::permuted_demo().access),
                        "the lanes read the 32 words of one row, in another order");
}

TEST(Predictions, Stride33Slowdown) {
  KIT_EXPECT_PREDICTION(
      lesson01::kPredictedStride33Slowdown,
      kit::model_ratio(lesson01::stride_33_demo(), lesson01::stride_one_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

} // namespace
