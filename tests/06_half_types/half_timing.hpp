// The lesson's timing tests' one step: two patterns, each issued by every warp of a
// saturating launch, timed in the same run (GPU tests only).
#pragma once

#include <gtest/gtest.h>

#include "kit/pattern.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace lesson06::testing {

/// Expects `a`'s time over `b`'s in the kit's band around the model's ratio of the two.
inline void expect_model_slowdown(const kit::Pattern& a, const kit::Pattern& b) {
  kit::PatternBench pa(a), pb(b);
  const kit::PatternPair pair = kit::saturating_pair(pa, pb);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(a, b));
}

} // namespace lesson06::testing
