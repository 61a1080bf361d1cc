// The demos on the GPU: the counters read exactly what the bank model says: one wavefront for
// a shared word (loads and stores), two for two words of one bank.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson04::stride_one_demo(), lesson04::one_word_demo(), lesson04::lane_pairs_demo(),
        lesson04::two_words_two_banks_demo(), lesson04::two_words_one_bank_demo(),
        lesson04::one_word_store_demo(), lesson04::stride_one_store_demo()}) {
    const kit::PatternBench bench(p);
    constexpr int kBlocks = 4, kRounds = 2;
    const kit::SharedCounters c =
        expect_counts(p.name, bench.trace(kBlocks, kRounds), [&] { bench.run(kBlocks, kRounds); });
    const std::uint64_t requests =
        p.op == kit::SharedOp::load ? c.sass.load_requests : c.sass.store_requests;
    EXPECT_EQ(requests, bench.pattern_requests(kBlocks, kRounds)) << p.name;
  }
}

} // namespace
