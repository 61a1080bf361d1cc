// Part 3 on the GPU: the ldmatrix counters read every ldmatrix.x4 of load_fragments at its
// ideal, and exactly the model's count.
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "ldsm_counters.hpp"

namespace {

class FragmentCounters : public lesson08::testing::LdsmCounterTest {};

TEST_F(FragmentCounters, EveryLdmatrixAtItsIdeal) {
  lesson08::testing::FragmentBuffers b;
  constexpr int kTiles = lesson08::testing::FragmentBuffers::kTiles;
  const lesson08::testing::LdsmCounts ideal{
      static_cast<std::uint64_t>(kTiles) * lesson08::kFragmentSteps,
      static_cast<std::uint64_t>(kTiles) * lesson08::kFragmentSteps * 4};
  const kit::LdsmCounters c = expect_ldsm(
      "load_fragments", lesson08::testing::fragment_counts<lesson08::FragmentTile>(kTiles),
      [&] { lesson08::load_fragments(b.in.get(), b.out.get(), kTiles); });
  // Not what they cost: that is a prediction's answer for the starter (the report line gives it).
  EXPECT_TRUE(c.wavefronts == ideal.wavefronts)
      << "load_fragments: the counters read more ldmatrix wavefronts than the ideal of its "
      << c.requests << " requests: the rows of a matrix share banks";
}

} // namespace
