/// @file solutions/03_stride_32/exercise.hpp
/// @brief Lesson 03, reference solution: predictions, and the padded tile.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson03 {

// Part 1.

/// Word 32 l + c is in bank c for every lane: 32 different words of one bank.
inline constexpr int kPredictedColumnWavefronts = 32;
/// Word 33 l + c is in bank (l + c) % 32: one bank per lane.
inline constexpr int kPredictedPaddedColumnWavefronts = 1;
/// A row is 32 consecutive words, wherever it starts: one bank per lane.
inline constexpr int kPredictedPaddedRowWavefronts = 1;
/// 32 wavefronts against 1.
inline constexpr double kPredictedColumnSlowdown = 32.0;

// Part 2.

/// One spare float at the end of each row: row r starts in bank r % 32.
inline constexpr int kTilePitch = kTileDim + 1;

/// Rows of 33 floats, as in `float tile[64][33]`.
///
///     row 0: offsets  0  1 ... 31  [32]      column 0: offsets 0, 33, 66, ...
///     row 1: offsets 33 34 ... 64  [65]      -> banks 0, 1, 2, ..., 31
///     row 2: offsets 66 67 ... 97  [98]      column c: banks (r + c) % 32, r = 0..31
///
/// A row is still 32 consecutive words (1 wavefront); 32 consecutive rows of a column (rows
/// 0-31, or rows 32-63) meet every bank once.
using TileLayout = kit::Pitched<float, kTileRows, kTileDim, kTilePitch>;

} // namespace lesson03
