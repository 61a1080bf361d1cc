// Part 3 on the CPU: with your padding, every pair access of transpose_half2 (phase-1 column
// stores, phase-2 row loads) is aligned and costs one wavefront, in a tile that keeps every
// element (a layout that loses data scores nothing, however cheap). A failure names the first
// access over its ideal and the lanes that collide there, once, at HalfTileLayout in
// exercise.hpp.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <exercise.hpp>

#include "half_layout_checks.hpp"
#include "half_trace.hpp"
#include "kit/at_ideal.hpp"
#include "kit/testing_exercise.hpp"
#include "kit/trace.hpp"

namespace {

using lesson06::testing::every_pair_access_at_ideal;
using lesson06::testing::tile_keeps_every_element;

TEST(PairLayout, EveryPairAccessIsOneWavefront) {
  KIT_ASSERT_AT_EXERCISE("HalfTileLayout", tile_keeps_every_element());
  KIT_EXPECT_AT_EXERCISE("kHalfPad", every_pair_access_at_ideal());
}

TEST(PairLayout, Half2KernelCostsTheIdealEverywhere) {
  KIT_ASSERT_AT_EXERCISE("HalfTileLayout", tile_keeps_every_element());
  // A full tile moves in pairs: the same message as EveryPairAccessIsOneWavefront when one of
  // its accesses is misaligned or over its ideal.
  KIT_ASSERT_AT_EXERCISE("kHalfPad", every_pair_access_at_ideal());
  kit::Trace all;
  for (const auto& [rows, cols] :
       {std::pair{64, 96}, std::pair{62, 34}, std::pair{1000, 778}, std::pair{31, 33}}) {
    const std::string shape = std::to_string(rows) + " x " + std::to_string(cols) + ", ";
    const kit::Trace trace = lesson06::testing::half2_trace(rows, cols);
    for (const kit::TraceEntry& e : trace.entries()) {
      all.add(e.op, e.access, e.repeat, shape + e.what);
    }
  }
  KIT_EXPECT_AT_EXERCISE("kHalfPad", kit::at_ideal(all));
}

} // namespace
