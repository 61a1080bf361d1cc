// The demos on the GPU: the counters read exactly what the bank model says for each of the
// three demos.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson01::stride_one_demo(), lesson01::stride_33_demo(), lesson01::permuted_demo()}) {
    expect_pattern(p);
  }
}

} // namespace
