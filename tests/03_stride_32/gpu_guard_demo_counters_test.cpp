// The demos on the GPU: the counters read exactly what the bank model says: a column of the
// 32x32 tile 32 wavefronts, a column of the 32x33 tile 1, rows 1.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson03::row_read_demo(), lesson03::column_read_demo(0), lesson03::column_read_demo(7),
        lesson03::column_read_demo(31), lesson03::padded_column_read_demo(0),
        lesson03::padded_column_read_demo(31), lesson03::padded_row_read_demo(5)}) {
    const kit::PatternBench bench(p);
    constexpr int kBlocks = 4, kRounds = 2;
    const kit::SharedCounters c =
        expect_counts(p.name, bench.trace(kBlocks, kRounds), [&] { bench.run(kBlocks, kRounds); });
    EXPECT_EQ(c.sass.load_requests, bench.pattern_requests(kBlocks, kRounds)) << p.name;
  }
}

} // namespace
