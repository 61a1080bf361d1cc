// Part 2 on the CPU: the padded layout and the phase-2 coordinate, judged by the bank model.
// The padded tile's column read is 1 wavefront for every column; the kernels' traces (built
// from your layout and coordinates, ragged edges included) cost what the lesson says: every
// padded access the ideal, the plain tile's full column read what the model gives lanes 32
// floats apart. The padded tile must keep every element and fit a block (a layout that loses
// data or cannot run scores nothing, however cheap).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/testing_exercise.hpp"
#include "kit/trace.hpp"
#include "predictions.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::kPaddedPitch;
using lesson05::kTileDim;
using lesson05::load_coord;
using lesson05::store_coord;

// The shapes whose traces are checked: one tile, ragged tiles of every kind, one row, one
// column.
struct TraceShape {
  int rows, cols;
};
const TraceShape kShapes[] = {{32, 32},    {1, 1},    {31, 33}, {33, 31},
                              {1000, 777}, {1, 4097}, {4097, 1}};

/// Success when PaddedLayout keeps every tile element in an offset of its own and the tile fits
/// a block's static shared memory; else what breaks.
::testing::AssertionResult padded_tile_keeps_every_element() {
  using Tile = lesson05::PaddedLayout;
  constexpr int kStaticSharedLimit = 48 * 1024; // bytes of __shared__ a block may declare
  const int floats = kit::cosize<Tile>(kTileDim, kTileDim);
  if (const auto clash = kit::first_collision(Tile{}, kTileDim, kTileDim, floats)) {
    return ::testing::AssertionFailure()
           << "PaddedLayout: " << kit::describe(*clash, floats, "the tile")
           << ": transpose_padded would lose data (every tile element needs an offset of its own)";
  }
  const int bytes = floats * static_cast<int>(sizeof(float));
  if (bytes > kStaticSharedLimit) {
    return ::testing::AssertionFailure()
           << "PaddedLayout spans " << bytes << " bytes, more than the " << kStaticSharedLimit
           << " bytes of __shared__ a block may declare: transpose_padded cannot run";
  }
  return ::testing::AssertionSuccess();
}

/// Success when load_coord reads, for every thread, the element phase 1 stored for its output
/// element; else the first thread that does not, in words. The tests that need a transposing
/// load_coord fail with this same message, at load_coord, so one mistake reads once.
::testing::AssertionResult load_coord_reads_the_transposed_element() {
  for (int x = 0; x < kTileDim; ++x) {
    for (int y = 0; y < kTileDim; ++y) {
      const kit::Coord got = load_coord(x, y), want = store_coord(y, x);
      if (!lesson05::testing::same_element(got, want)) {
        return ::testing::AssertionFailure()
               << "load_coord(" << x << ", " << y << ") is tile element (" << got.row << ", "
               << got.col << "). Thread (x = " << x << ", y = " << y
               << ") writes output element (col0 + " << y << ", row0 + " << x
               << "), which is input element (row0 + " << x << ", col0 + " << y
               << "): phase 1 stored it at store_coord(" << y << ", " << x << ") = tile element ("
               << want.row << ", " << want.col << ")";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

/// Every column read of `layout` (lane x reads element (x, y) of column y), one instruction
/// each.
template <class Layout>
kit::Trace column_reads(Layout layout) {
  kit::Trace t;
  for (int y = 0; y < kTileDim; ++y) {
    const auto column = [y](int x) { return kit::Coord{x, y}; };
    t.add(kit::SharedOp::load, kit::warp_access(layout, column), 1,
          "read of column " + std::to_string(y));
  }
  return t;
}

TEST(Layout, LoadSlotReadsTheTransposedElement) {
  KIT_ASSERT_AT_EXERCISE("load_coord", load_coord_reads_the_transposed_element());
}

TEST(Layout, PaddedColumnReadIsOneWavefrontForEveryColumn) {
  KIT_ASSERT_AT_EXERCISE("PaddedLayout", padded_tile_keeps_every_element());
  // One failure for the layout: its first column over the ideal, the lanes that collide there,
  // and how many more columns do the same.
  const kit::Trace columns = column_reads(lesson05::PaddedLayout{});
  int first = 0; // the first column over its ideal, for the drawing
  for (; first + 1 < kTileDim; ++first) {
    const kit::BankReport r =
        kit::analyze(columns.entries()[static_cast<std::size_t>(first)].access);
    if (!r.ok() || r.wavefronts > r.ideal) {
      break;
    }
  }
  KIT_EXPECT_AT_EXERCISE("PaddedLayout", kit::at_ideal(columns))
      << "A tile with pitch " << kPaddedPitch << ". "
      << kit::drawing_text(lesson05::testing::predictions_written(),
                           "Try `bank-map --type float --layout 32x" +
                               std::to_string(kPaddedPitch) + " --column " + std::to_string(first) +
                               "`.");
}

TEST(Layout, TileExtentStopsAtTheEdge) {
  for (int n : {1, 2, 31, 32, 33, 63, 64, 65, 777, 1000, 4097}) {
    for (int origin = 0; origin < n; origin += kTileDim) {
      int exists = 0; // the axis's elements origin, origin + 1, ... that the tile covers
      for (int i = origin; i < n && i < origin + kTileDim; ++i) {
        ++exists;
      }
      KIT_ASSERT_EQ_AT_EXERCISE("tile_extent", lesson05::tile_extent(origin, n), exists)
          << "the tile starting at " << origin << " of an axis of " << n << " elements holds "
          << exists << " of them";
    }
  }
}

TEST(Layout, PaddedKernelCostsTheIdealEverywhere) {
  KIT_ASSERT_AT_EXERCISE("PaddedLayout", padded_tile_keeps_every_element());
  // The trace is a transpose's only with the right load_coord (the same message as
  // LoadSlotReadsTheTransposedElement).
  KIT_ASSERT_AT_EXERCISE("load_coord", load_coord_reads_the_transposed_element());
  // One failure: the first instruction over its ideal, with the lanes that collide, and how
  // many more (of every shape) are over theirs.
  kit::Trace all;
  for (const TraceShape s : kShapes) {
    const std::string shape = std::to_string(s.rows) + " x " + std::to_string(s.cols) + ", ";
    const kit::Trace trace = lesson05::testing::padded_trace(s.rows, s.cols);
    for (const kit::TraceEntry& e : trace.entries()) {
      all.add(e.op, e.access, e.repeat, shape + e.what);
    }
  }
  KIT_EXPECT_AT_EXERCISE("PaddedLayout", kit::at_ideal(all));
}

TEST(Layout, TiledKernelReadsAWholeColumnPerRequest) {
  KIT_ASSERT_AT_EXERCISE("load_coord", load_coord_reads_the_transposed_element());
  // A full tile: every phase-2 load is a column of the plain tile, which the model prices
  // as lanes a row (32 floats) apart; every phase-1 store is a row.
  const int column =
      kit::wavefronts(kit::strided_access(sizeof(float), lesson05::TiledLayout::kPitch));
  const int row = kit::wavefronts(kit::strided_access(sizeof(float), 1), kit::SharedOp::store);
  const kit::Trace trace = lesson05::testing::tiled_trace(kTileDim, kTileDim);
  int loads = 0;
  for (const kit::TraceEntry& e : trace.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    ASSERT_TRUE(r.ok()) << e.what;
    if (e.op == kit::SharedOp::load) {
      ++loads;
      EXPECT_EQ(r.wavefronts, column) << e.what;
    } else {
      EXPECT_EQ(r.wavefronts, row) << e.what;
    }
  }
  EXPECT_GT(loads, 0);
}

} // namespace
