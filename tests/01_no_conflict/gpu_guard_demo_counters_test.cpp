// The demos on the GPU: the counters read exactly what the bank model says, one wavefront
// per request for all three.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson01::stride_one_demo(), lesson01::stride_33_demo(), lesson01::permuted_demo()}) {
    const kit::PatternBench bench(p);
    constexpr int kBlocks = 4, kRounds = 2;
    const kit::SharedCounters c =
        expect_counts(p.name, bench.trace(kBlocks, kRounds), [&] { bench.run(kBlocks, kRounds); });
    EXPECT_EQ(c.sass.load_requests, bench.pattern_requests(kBlocks, kRounds)) << p.name;
    EXPECT_EQ(c.sass.load_wavefronts, c.sass.load_requests) << p.name << ": not conflict-free";
  }
}

} // namespace
