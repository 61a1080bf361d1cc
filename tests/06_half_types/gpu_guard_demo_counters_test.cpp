// The demos on the GPU: the counters read exactly what the bank model says for each demo,
// half and float.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson06::half_stride_one_demo(), lesson06::half_stride_two_demo(),
        lesson06::half_column_demo(), lesson06::float_column_demo(),
        lesson06::half_stride_64_demo(), lesson06::float_stride_one_demo()}) {
    expect_pattern(p);
  }
}

} // namespace
