/// @file solutions/03_stride_32/exercise.hpp
/// @brief Lesson 03, reference solution: predictions, and the padded 32x33 tile.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson03 {

// Part 1.

/// Word 32 l + c is in bank c for every lane: 32 different words of one bank.
inline constexpr int kPredictedColumnWavefronts = 32;
/// Word 33 l + c is in bank (l + c) % 32: one bank per lane.
inline constexpr int kPredictedPaddedColumnWavefronts = 1;
/// A row is 32 consecutive words, wherever it starts: one bank per lane.
inline constexpr int kPredictedPaddedRowWavefronts = 1;
/// 32 wavefronts against 1, when the shared-memory pipe is the bottleneck.
inline constexpr double kPredictedColumnSlowdown = 32.0;

// Part 2.

/// One spare float at the end of each row: row r starts in bank r % 32.
inline constexpr int kTilePitch = kTileDim + 1;
static_assert(kTilePitch % 2 == 1, "an odd pitch puts 32 consecutive rows' starts in 32 banks");
static_assert(kBlockRows * kTilePitch <= kTileCapacity, "the padded tile must fit its buffer");

/// Float index of tile element (row, col): row-major with pitch 33.
///
///     row 0: words   0   1  ...  31  [32]      column 0: words 0, 33, 66, ...
///     row 1: words  33  34  ...  64  [65]      -> banks 0, 1, 2, ..., 31
///     row 2: words  66  67  ...  97  [98]      column c: banks (r + c) % 32, r = 0..31
///
/// A row is still 32 consecutive words (1 wavefront); 32 consecutive rows of a column (rows
/// 0-31, or rows 32-63) now meet every bank once.
KIT_HD constexpr int tile_index(int row, int col) {
  return row * kTilePitch + col;
}

/// scores[j][r] = sum over c < n_cols of rows[r][c] * queries[j][c].
void score_rows(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                cudaStream_t stream = nullptr);

/// The __global__ function behind score_rows() (for the timer's occupancy check).
const void* score_rows_kernel();

} // namespace lesson03
