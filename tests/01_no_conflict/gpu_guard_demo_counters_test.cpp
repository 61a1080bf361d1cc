// The demos on the GPU: the counters read exactly what the bank model says, one wavefront
// per request for all three.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (const kit::Pattern& p :
       {lesson01::stride_one_demo(), lesson01::stride_33_demo(), lesson01::permuted_demo()}) {
    const kit::SharedCounters c = expect_pattern(p);
    EXPECT_EQ(c.sass.load_wavefronts, c.sass.load_requests) << p.name << ": not conflict-free";
  }
}

} // namespace
