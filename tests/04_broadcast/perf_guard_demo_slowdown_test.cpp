// The demos timed against stride 1 in one saturating run: a word shared by all lanes, a word
// shared by lane pairs, two words in two banks and two words in one bank, each in the kit's
// band around the model's ratio.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

TEST(DemoSlowdown, OneWordOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson04::one_word_demo(), lesson04::stride_one_demo());
}

TEST(DemoSlowdown, LanePairsOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson04::lane_pairs_demo(), lesson04::stride_one_demo());
}

TEST(DemoSlowdown, TwoWordsTwoBanksOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson04::two_words_two_banks_demo(),
                                      lesson04::stride_one_demo());
}

TEST(DemoSlowdown, TwoWordsOneBankOverStrideOne) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson04::two_words_one_bank_demo(),
                                      lesson04::stride_one_demo());
}

} // namespace
