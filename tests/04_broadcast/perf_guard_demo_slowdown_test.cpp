// The demos timed against stride 1 in one saturating run: a word shared by all lanes, or by
// lane pairs, and two words in two banks as fast as stride 1; two words in one bank about 2x.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

void expect_model_slowdown(const kit::Pattern& p) {
  kit::PatternBench a(p);
  kit::PatternBench b(lesson04::stride_one_demo());
  const kit::PatternPair pair = kit::saturating_pair(a, b);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(p, b.pattern()));
}

TEST(DemoSlowdown, OneWordAsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson04::one_word_demo());
}

TEST(DemoSlowdown, LanePairsAsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson04::lane_pairs_demo());
}

TEST(DemoSlowdown, TwoWordsTwoBanksAsFastAsStrideOne) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson04::two_words_two_banks_demo());
}

TEST(DemoSlowdown, TwoWordsOneBankTwiceAsSlow) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson04::two_words_one_bank_demo());
}

} // namespace
