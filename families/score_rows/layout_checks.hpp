/// @file families/score_rows/layout_checks.hpp
/// @brief The rules every score_rows tile layout keeps, as GoogleTest assertions for the CPU
/// tests of the lessons on the family (each compiles only for a layout of the kind's tile:
/// holds_the_tile, shape.hpp): the tile one-to-one into the kTileCapacity floats
/// reserved for it, every wide load reading its step's floats in order, and every 4-byte row
/// store of a floats-staged kind at one wavefront.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows/shape.hpp"

namespace families::score_rows {

/// Success when `Layout` maps the kTileRows x kTileDim tile of kind `S` one-to-one into the
/// kTileCapacity floats reserved for it; else the element that collides or lies outside.
template <class S, class Layout>
::testing::AssertionResult one_to_one_in_the_tile_buffer() {
  static_assert(holds_the_tile<S, Layout>());
  const std::optional<kit::Collision> clash =
      kit::first_collision(Layout{}, S::kTileRows, kTileDim, S::kTileCapacity);
  if (clash) {
    return ::testing::AssertionFailure()
           << kit::describe(*clash, S::kTileCapacity, "the tile's kTileCapacity floats");
  }
  return ::testing::AssertionSuccess();
}

/// Success when the loads of kind `S` (kVec floats of a row at once) read the elements of their
/// step in order on `Layout`: element (r, step_column(s) + k) at the offset of
/// (r, step_column(s)) plus k. Always true for one float a load; else the first element that
/// is not where its load reads it.
template <class S, class Layout>
::testing::AssertionResult wide_loads_read_their_step() {
  static_assert(holds_the_tile<S, Layout>());
  constexpr Layout tile{};
  for (int r = 0; r < S::kTileRows; ++r) {
    for (int s = 0; s < S::kSteps; ++s) {
      const int c = S::step_column(s);
      for (int k = 1; k < S::kVec; ++k) {
        if (tile(r, c + k) != tile(r, c) + k) {
          return ::testing::AssertionFailure()
                 << "element (" << r << ", " << c + k << ") lives at offset " << tile(r, c + k)
                 << ", but the float" << S::kVec << " load of row " << r << " at column " << c
                 << " reads it from offset " << tile(r, c) + k;
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

/// Success when score_rows of kind `S` keeps every element of the tile in `Layout`: the tile
/// one-to-one into its buffer (one_to_one_in_the_tile_buffer), and every wide load reading its
/// step (wide_loads_read_their_step); else what breaks, for the exercise tests that judge a
/// layout's cost: a layout that loses data scores nothing, however cheap.
template <class S, class Layout>
::testing::AssertionResult keeps_every_element() {
  for (const ::testing::AssertionResult& rule :
       {one_to_one_in_the_tile_buffer<S, Layout>(), wide_loads_read_their_step<S, Layout>()}) {
    if (!rule) {
      return ::testing::AssertionFailure()
             << "TileLayout: " << rule.message()
             << ": score_rows would lose data (every tile element needs a float of its own, "
                "where the kernel reads it)";
    }
  }
  return ::testing::AssertionSuccess();
}

/// Success when every tile row of `Layout`, stored by a warp with one 4-byte store per lane
/// (floats staging), costs 1 wavefront; else the first row that does not, with the layout's
/// banks down to it.
template <class S, class Layout>
::testing::AssertionResult row_stores_at_one_wavefront() {
  static_assert(holds_the_tile<S, Layout>());
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
