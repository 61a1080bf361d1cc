// The stride demos on the GPU: the counters read exactly what the bank model says, and the
// model's gcd law with them: stride s costs gcd(s, 32) wavefronts per request.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (unsigned s : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 8u, 12u, 16u, 24u, 32u, 33u, 48u, 64u}) {
    const kit::PatternBench bench(lesson02::stride_demo(s));
    constexpr int kBlocks = 4, kRounds = 2;
    const kit::SharedCounters c = expect_counts(bench.pattern().name, bench.trace(kBlocks, kRounds),
                                                [&] { bench.run(kBlocks, kRounds); });
    EXPECT_EQ(c.sass.load_requests, bench.pattern_requests(kBlocks, kRounds))
        << bench.pattern().name;
  }
}

} // namespace
