/// @file solutions/05_padded_transpose/exercise.hpp
/// @brief Lesson 05, reference solution: predictions, the padded tile, the tile's index
/// functions, and the tiled and padded transposes.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

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

// Part 2: the tile in shared memory.

/// Row pitch, in floats, of the plain tile of transpose_tiled.
inline constexpr int kTiledPitch = kTileDim;

/// Row pitch, in floats, of the padded tile of transpose_padded: one float of padding moves
/// each row one bank along.
///
///   pitch 33        col:  0    1    2  ...  31 | pad
///     row 0        bank:  0    1    2  ...  31 |  0
///     row 1        bank:  1    2    3  ...   0 |  1
///     row 2        bank:  2    3    4  ...   1 |  2
///     ...
///     row 31       bank: 31    0    1  ...  30 | 31
///                         ^ column 0 is in 32 different banks: 1 wavefront
inline constexpr int kPaddedPitch = kTileDim + 1;

/// Shared-memory slot (float index) of tile element (r, c) when tile rows are `Pitch`
/// floats apart.
///
///   pitch 32        col:  0    1    2  ...  31
///     row 0        bank:  0    1    2  ...  31    <- a row: 32 banks, 1 wavefront
///     row 1        bank:  0    1    2  ...  31
///     ...
///     row 31       bank:  0    1    2  ...  31
///                         ^ a column: 32 words in bank 0, 32 wavefronts
template <int Pitch>
KIT_HD constexpr int tile_slot(int r, int c) {
  static_assert(Pitch >= kTileDim, "a tile row must hold kTileDim floats");
  return r * Pitch + c; // (r, c) -> bank (r * Pitch + c) % 32
}

/// Phase 1: thread (x, y) keeps input element (row0 + y, col0 + x) at tile row y, column x.
/// A warp (one y, lanes x = 0..31) stores one tile row.
template <int Pitch>
KIT_HD constexpr int store_slot(int x, int y) {
  return tile_slot<Pitch>(y, x);
}

/// Phase 2: thread (x, y) writes output element (col0 + y, row0 + x), which is input element
/// (row0 + x, col0 + y): phase 1 left it at tile row x, column y. A warp reads one tile
/// column.
template <int Pitch>
KIT_HD constexpr int load_slot(int x, int y) {
  return tile_slot<Pitch>(x, y);
}

/// Elements of the tile that starts at `origin` along an axis of `n` elements: kTileDim
/// inside the matrix, fewer in the last, ragged tile.
KIT_HD constexpr int tile_extent(int origin, int n) {
  return n - origin < kTileDim ? n - origin : kTileDim;
}

// Part 3: the kernels (exercise.cu).

/// Transposes through a kTileDim x kTiledPitch tile: phase 1 stores tile rows (1
/// wavefront), phase 2 reads tile columns (32 wavefronts).
void transpose_tiled(const float* in, float* out, int rows, int cols,
                     cudaStream_t stream = nullptr);

/// Transposes through a kTileDim x kPaddedPitch tile: every shared access 1 wavefront.
void transpose_padded(const float* in, float* out, int rows, int cols,
                      cudaStream_t stream = nullptr);

} // namespace lesson05
