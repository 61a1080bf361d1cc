// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

int cost(const kit::Pattern& p) {
  return kit::wavefronts(p.access, p.op);
}

TEST(Predictions, OneWordWavefronts) {
  KIT_EXPECT_PREDICTION(lesson04::kPredictedOneWordWavefronts, cost(lesson04::one_word_demo()),
                        "32 lanes, one word: how many words does bank 0 have to deliver?");
}

TEST(Predictions, LanePairsWavefronts) {
  KIT_EXPECT_PREDICTION(lesson04::kPredictedLanePairsWavefronts, cost(lesson04::lane_pairs_demo()),
                        "lanes 2m and 2m + 1 read word m: count the different words per bank");
}

TEST(Predictions, TwoWordsTwoBanksWavefronts) {
  KIT_EXPECT_PREDICTION(lesson04::kPredictedTwoWordsTwoBanksWavefronts,
                        cost(lesson04::two_words_two_banks_demo()),
                        "words 0 and 1 are in banks 0 and 1");
}

TEST(Predictions, TwoWordsOneBankWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson04::kPredictedTwoWordsOneBankWavefronts, cost(lesson04::two_words_one_bank_demo()),
      "words 0 and 32: which banks are they in? A bank delivers one word per wavefront");
}

TEST(Predictions, OneWordStoreWavefronts) {
  KIT_EXPECT_PREDICTION(lesson04::kPredictedOneWordStoreWavefronts,
                        cost(lesson04::one_word_store_demo()),
                        "32 lanes store to one word: how many words does bank 0 have to write?");
}

TEST(Predictions, TwoWordsOneBankSlowdown) {
  KIT_EXPECT_PREDICTION(
      lesson04::kPredictedTwoWordsOneBankSlowdown,
      kit::model_ratio(lesson04::two_words_one_bank_demo(), lesson04::stride_one_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

} // namespace
