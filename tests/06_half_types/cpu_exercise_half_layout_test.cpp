// Part 2 on the CPU: with your tile layout, every column of the half tile reads in one
// wavefront, and every instruction of transpose_half costs the ideal of its width, ragged
// edges included; each with a tile that keeps every element (a layout that loses data scores
// nothing, however cheap). A failure names the first instruction over its ideal and the lanes
// that collide there, once, at HalfTileLayout in exercise.hpp.
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

using lesson06::testing::every_column_read_at_ideal;
using lesson06::testing::tile_keeps_every_element;

TEST(HalfLayout, EveryColumnReadIsOneWavefront) {
  KIT_ASSERT_AT_EXERCISE("HalfTileLayout", tile_keeps_every_element());
  KIT_EXPECT_AT_EXERCISE("kHalfPad", every_column_read_at_ideal());
}

TEST(HalfLayout, TransposeHalfCostsTheIdealEverywhere) {
  KIT_ASSERT_AT_EXERCISE("HalfTileLayout", tile_keeps_every_element());
  // A full tile's phase 2 reads every column: the same message as EveryColumnReadIsOneWavefront
  // when one is over its ideal.
  KIT_ASSERT_AT_EXERCISE("kHalfPad", every_column_read_at_ideal());
  kit::Trace all;
  for (const auto& [rows, cols] : {std::pair{32, 32}, std::pair{1, 1}, std::pair{31, 33},
                                   std::pair{1000, 777}, std::pair{1, 4097}, std::pair{4097, 1}}) {
    const std::string shape = std::to_string(rows) + " x " + std::to_string(cols) + ", ";
    const kit::Trace trace = lesson06::testing::half_trace(rows, cols);
    for (const kit::TraceEntry& e : trace.entries()) {
      all.add(e.op, e.access, e.repeat, shape + e.what);
    }
  }
  KIT_EXPECT_AT_EXERCISE("kHalfPad", kit::at_ideal(all));
}

} // namespace
