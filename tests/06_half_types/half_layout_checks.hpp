// The half tile judged by the bank model, one message per check, for the CPU tests of Parts 2
// and 3: every element kept, every column read and every pair access at its ideal. A test that
// needs another's check first fails with that check's message, at the same line of
// exercise.hpp (HalfTileLayout), so that one mistake in the tile reads once.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/at_ideal.hpp"
#include "kit/layout.hpp"
#include "kit/trace.hpp"
#include "predictions.hpp"

namespace lesson06::testing {

/// Success when HalfTileLayout keeps every element of the tile and fits a block (tile_loss).
inline ::testing::AssertionResult tile_keeps_every_element() {
  if (const auto loss = tile_loss()) {
    return ::testing::AssertionFailure() << *loss;
  }
  return ::testing::AssertionSuccess();
}

/// Every column read of the tile (lane x reads element (x, y) of column y: phase 2 of
/// transpose_half), one instruction each.
inline kit::Trace column_reads() {
  kit::Trace t;
  for (int y = 0; y < kTileDim; ++y) {
    const auto column = [y](int x) { return kit::Coord{x, y}; };
    t.add(kit::SharedOp::load, kit::warp_access(HalfTileLayout{}, column), 1,
          "read of column " + std::to_string(y));
  }
  return t;
}

/// Success when every column read costs its ideal; else the first that does not, the lanes that
/// collide there and how many more columns do the same, and how to draw it.
inline ::testing::AssertionResult every_column_read_at_ideal() {
  const kit::Trace columns = column_reads();
  const auto over = kit::first_over_ideal(columns);
  if (!over) {
    return ::testing::AssertionSuccess();
  }
  const std::string column = over->what.substr(over->what.rfind(' ') + 1);
  return ::testing::AssertionFailure()
         << "with kHalfPitch = " << kHalfPitch << ", " << over->describe() << ". "
         << kit::drawing_text(lesson06::testing::predictions_written(),
                              "Draw it: `bank-map --type half --layout " +
                                  std::to_string(kTileDim) + "x" + std::to_string(kHalfPitch) +
                                  " --column " + column + "`.");
}

/// Success when every pair access of a full tile (transpose_half2's phase-1 column stores and
/// phase-2 row loads) is aligned and costs its ideal; else the first that is not, in words.
inline ::testing::AssertionResult every_pair_access_at_ideal() {
  if (const auto misaligned = pair_misalignment()) {
    return ::testing::AssertionFailure() << *misaligned;
  }
  const ::testing::AssertionResult pairs = kit::at_ideal(pair_tile_trace());
  if (!pairs) {
    return ::testing::AssertionFailure()
           << "with kHalfPitch = " << kHalfPitch << ", " << pairs.message();
  }
  return ::testing::AssertionSuccess();
}

} // namespace lesson06::testing
