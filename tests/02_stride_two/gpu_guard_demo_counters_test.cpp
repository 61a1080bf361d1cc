// The stride demos on the GPU: the counters read exactly what the bank model says, and the
// model's gcd law with them: stride s costs gcd(s, 32) wavefronts per request.
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
