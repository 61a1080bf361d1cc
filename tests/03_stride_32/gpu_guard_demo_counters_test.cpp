// The demos on the GPU: the counters read exactly what the bank model says for each demo,
// rows and columns of the 32x32 and of the 32x33 tile.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson03::row_read_demo(), lesson03::column_read_demo(0), lesson03::column_read_demo(7),
        lesson03::column_read_demo(31), lesson03::padded_column_read_demo(0),
        lesson03::padded_column_read_demo(31), lesson03::padded_row_read_demo(5)}) {
    expect_pattern(p);
  }
}

} // namespace
