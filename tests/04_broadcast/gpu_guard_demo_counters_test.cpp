// The demos on the GPU: the counters read exactly what the bank model says for each demo,
// loads and stores.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson04::stride_one_demo(), lesson04::one_word_demo(), lesson04::lane_pairs_demo(),
        lesson04::two_words_two_banks_demo(), lesson04::two_words_one_bank_demo(),
        lesson04::one_word_store_demo(), lesson04::stride_one_store_demo()}) {
    expect_pattern(p);
  }
}

} // namespace
