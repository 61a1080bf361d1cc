/// @file solutions/05_padded_transpose/exercise.hpp
/// @brief Lesson 05, reference solution: predictions, the padded tile, the tile element each
/// thread loads in phase 2, and the extent of a ragged tile.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson05 {

// Part 1: a warp reads tile column y: lane x asks for word x * pitch + y.

/// A tile row: 32 consecutive words, one per bank.
inline constexpr int kPredictedRowStoreWavefronts = 1;
/// Pitch 32: word 32 x + y is in bank y for every lane: 32 words in one bank.
inline constexpr int kPredictedColumnReadPitch32Wavefronts = 32;
/// Pitch 33: word 33 x + y is in bank (x + y) % 32: a bank per lane.
inline constexpr int kPredictedColumnReadPitch33Wavefronts = 1;
/// Pitch 34: word 34 x + y is in bank (2 x + y) % 32: lanes x and x + 16 share a bank.
inline constexpr int kPredictedColumnReadPitch34Wavefronts = 2;

// Part 2: the padded tile, and where thread (x, y) reads it in phase 2.

/// One float of padding moves each row one bank along.
inline constexpr int kPaddedPitch = kTileDim + 1;

/// transpose_padded's tile: rows of 33 floats, as in `float tile[32][33]`.
///
///   pitch 33        col:  0    1    2  ...  31 | pad
///     row 0        bank:  0    1    2  ...  31 |  0
///     row 1        bank:  1    2    3  ...   0 |  1
///     row 2        bank:  2    3    4  ...   1 |  2
///     ...
///     row 31       bank: 31    0    1  ...  30 | 31
///                         ^ column 0 is in 32 different banks: 1 wavefront
using PaddedLayout = kit::Pitched<float, kTileDim, kTileDim, kPaddedPitch>;

/// Thread (x, y) writes output element (col0 + y, row0 + x), which is input element
/// (row0 + x, col0 + y): phase 1 left it at tile element (x, y) (store_coord(y, x)). A warp
/// reads one tile column.
KIT_HD constexpr kit::Coord load_coord(int x, int y) {
  return {x, y};
}

/// kTileDim inside the matrix, fewer in the last, ragged tile of an axis.
KIT_HD constexpr int tile_extent(int origin, int n) {
  return n - origin < kTileDim ? n - origin : kTileDim;
}

} // namespace lesson05
