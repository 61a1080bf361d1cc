// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/pattern.hpp"
#include "kit/prediction.hpp"
#include "shapes.hpp"

namespace {

TEST(Predictions, ConflictWavefronts) {
  KIT_EXPECT_PREDICTION(lesson10::kPredictedConflictWavefronts,
                        kit::wavefronts(lesson10::probe_pattern(lesson10::Probe::conflict).access),
                        "lane l reads word 32 l + c: which bank, which word, for every l?");
}

TEST(Predictions, TwinWavefronts) {
  KIT_EXPECT_PREDICTION(lesson10::kPredictedTwinWavefronts,
                        kit::wavefronts(lesson10::probe_pattern(lesson10::Probe::twin).access),
                        "lane l reads word 33 l + c: (33 l + c) mod 32 = ?");
}

TEST(Predictions, HarnessRatio) {
  KIT_EXPECT_PREDICTION(lesson10::kPredictedHarnessRatio,
                        kit::model_ratio(lesson10::probe_pattern(lesson10::Probe::conflict),
                                         lesson10::probe_pattern(lesson10::Probe::twin)),
                        "when the shared-memory pipe is the bottleneck, time is proportional to "
                        "wavefronts");
}

TEST(Predictions, PlainOffset0Wavefronts) {
  KIT_EXPECT_PREDICTION(lesson10::kPredictedPlainOffset0Wavefronts,
                        kit::wavefronts(lesson10::testing::plain_shape(0).access),
                        "every lane reads word 0 * l: how many different words?");
}

TEST(Predictions, JaggedOffset2Wavefronts) {
  KIT_EXPECT_PREDICTION(lesson10::kPredictedJaggedOffset2Wavefronts,
                        kit::wavefronts(lesson10::testing::jagged_shape(2).access),
                        "word 2 l + 32 l = 34 l: the bank is (34 l) mod 32");
}

TEST(Predictions, JaggedOffset0Wavefronts) {
  KIT_EXPECT_PREDICTION(lesson10::kPredictedJaggedOffset0Wavefronts,
                        kit::wavefronts(lesson10::testing::jagged_shape(0).access),
                        "word 0 l + 32 l: is it still one word for every lane?");
}

} // namespace
