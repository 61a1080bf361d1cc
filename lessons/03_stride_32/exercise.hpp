/// @file lessons/03_stride_32/exercise.hpp
/// @brief Lesson 03 exercise: predictions, and a padded tile layout for a kernel that reads
/// tile columns.
///
/// Edit this file. Part 1 and Part 2 are checked by CPU tests (no GPU needed); Part 2 is also
/// checked on the GPU, by the counters and the timer.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

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
/// Your prediction: column-read time over row-read time (float[32][32]) in a saturating launch.
inline constexpr double kPredictedColumnSlowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the tile layout of score_rows (exercise.cu; the problem is described in demo.hpp).
//
// Each block stages a tile of kBlockRows = 64 rows x 32 columns in shared memory, a row at a
// time (warp w stores tile rows w and w + 32, lane l storing column l), then
// lane l of every warp reads tile rows l and l + 32, one column per step: each of those
// requests reads a *column* of 32 consecutive rows. With the starter's plain layout a column
// is 32 words of one bank: a 32-way conflict, 32 warps x 32 columns x 2 of them for every
// tile. The scores are right; the kernel is many times slower than its twin (demo.hpp).
//
// Write tile_index so that a column read and a row store both cost 1 wavefront, for every
// row and column. The shared buffer reserves kTileCapacity floats for the tile.
// ---------------------------------------------------------------------------------------

/// Floats from the start of one tile row to the start of the next.
inline constexpr int kTilePitch = kTileDim; // TODO: with 32, every row starts in bank 0

/// Float index in the shared buffer of tile element (row, col), 0 <= row < kBlockRows,
/// 0 <= col < kTileDim.
///
///     row 0: words   0   1   2  ...  31
///     row 1: words  32  33  34  ...  63        column c: words c, 32 + c, 64 + c, ...
///     row 2: words  64  65  66  ...  95        -> all in bank c
///
/// TODO: draw your layout here, with the banks of column 0.
KIT_HD constexpr int tile_index(int row, int col) {
  return row * kTilePitch + col; // TODO
}

/// scores[j][r] = sum over c < n_cols of rows[r][c] * queries[j][c], for j < kQueries and
/// r < n_rows (see demo.hpp for the layouts). Any n_rows, n_cols >= 0.
void score_rows(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                cudaStream_t stream = nullptr);

/// The __global__ function behind score_rows() (for the timer's occupancy check).
const void* score_rows_kernel();

} // namespace lesson03
