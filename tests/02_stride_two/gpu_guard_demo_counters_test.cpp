// The stride demos on the GPU: the counters read exactly what the bank model says for each
// stride, so the hardware follows the gcd law that cpu_guard_gcd_law_test holds the model to.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  for (unsigned s : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 8u, 12u, 16u, 24u, 32u, 33u, 48u, 64u}) {
    expect_pattern(lesson02::stride_demo(s));
  }
}

} // namespace
