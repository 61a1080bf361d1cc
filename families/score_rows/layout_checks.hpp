/// @file families/score_rows/layout_checks.hpp
/// @brief The rules every score_rows tile layout keeps, as GoogleTest assertions for the CPU
/// tests of the lessons on the family: the tile one-to-one into the kTileCapacity floats
/// reserved for it, and every 4-byte row store of a floats-staged kind at one wavefront.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows/shape.hpp"

namespace families::score_rows {

/// Success when `Layout` maps the kTileRows x kTileDim tile of kind `S` one-to-one into the
/// kTileCapacity floats reserved for it; else the element that collides or lies outside.
template <class S, class Layout>
::testing::AssertionResult one_to_one_in_the_tile_buffer() {
  const std::optional<kit::Collision> clash = kit::first_collision(Layout{}, S::kTileCapacity);
  if (clash) {
    return ::testing::AssertionFailure()
           << kit::describe(*clash, S::kTileCapacity, "the tile's kTileCapacity floats");
  }
  return ::testing::AssertionSuccess();
}

/// Success when every tile row of `Layout`, stored by a warp with one 4-byte store per lane
/// (floats staging), costs 1 wavefront; else the first row that does not, with the layout's
/// banks down to it.
template <class S, class Layout>
::testing::AssertionResult row_stores_at_one_wavefront() {
  for (int r = 0; r < S::kTileRows; ++r) {
    const kit::BankReport rep = kit::analyze(kit::warp_access(Layout{},
                                                              [&](int lane) {
                                                                return kit::Coord{r, lane};
                                                              }),
                                             kit::SharedOp::store);
    if (!rep.ok() || rep.wavefronts != 1) {
      return ::testing::AssertionFailure() << "row " << r << " costs " << rep.wavefronts
                                           << " wavefronts: the staging stores write whole rows\n"
                                           << kit::print_layout(Layout{}, r + 1);
    }
  }
  return ::testing::AssertionSuccess();
}

} // namespace families::score_rows
