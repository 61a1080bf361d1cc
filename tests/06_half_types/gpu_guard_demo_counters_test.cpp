// The demos on the GPU: the counters read exactly what the bank model says (half stride 1
// and 2: 1 wavefront; the half column: 16; the float column and half stride 64: 32).
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
