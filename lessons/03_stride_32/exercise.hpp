/// @file lessons/03_stride_32/exercise.hpp
/// @brief Lesson 03 exercise: your predictions, and the layout of score_rows' tile.
///
/// Edit this file. Both parts are checked by CPU tests (no GPU needed); Part 2 also on the
/// GPU, by the counters and the timer.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson03 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of the demos in demo.hpp
// (4-byte loads: the ideal is 1), and the slowdown of a column read over a row read.
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts per request of column_read_demo() (a column of float[32][32]).
inline constexpr int kPredictedColumnWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of padded_column_read_demo() (float[32][33]).
inline constexpr int kPredictedPaddedColumnWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of padded_row_read_demo() (a row of float[32][33]).
inline constexpr int kPredictedPaddedRowWavefronts = 0; // TODO
/// Your prediction: the model's ratio of column-read time to row-read time (float[32][32])
/// when the shared-memory pipe is the bottleneck.
inline constexpr double kPredictedColumnSlowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the tile of score_rows (README, demo.hpp). A warp stores a tile row (32 columns)
// and reads a tile column (32 consecutive rows). Make both cost 1 wavefront, for every row
// and every column, within the kTileCapacity floats reserved for the tile.
// ---------------------------------------------------------------------------------------

/// Floats from the start of one tile row to the start of the next.
inline constexpr int kTilePitch = kTileDim; // TODO

/// The tile layout: (row, col) -> offset row * kTilePitch + col, for the kTileRows x kTileDim
/// tile. Any layout type works here (kit/layout.hpp).
///
///     row 0: offsets  0  1  2 ... 31
///     row 1: offsets 32 33 34 ... 63        column c: offsets c, 32 + c, 64 + c, ...
///     row 2: offsets 64 65 66 ... 95        -> banks ?
///
/// TODO: draw your layout here, with the banks of column 0.
using TileLayout = kit::Pitched<float, kTileRows, kTileDim, kTilePitch>;

} // namespace lesson03
