/// @file lessons/05_padded_transpose/exercise.hpp
/// @brief Lesson 05 exercise: predictions, the padded tile, and the index functions of the
/// tiled and padded transposes.
///
/// Edit this file and exercise.cu. Parts 1 and 2 are checked by CPU tests (no GPU needed):
/// the bank model judges your layout, and a CPU emulation of the kernel built from your
/// functions must transpose every matrix. Part 3 (exercise.cu) is checked on the GPU: the
/// results, the hardware counters against the same functions, and the bandwidth.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson05 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. In phase 2 of a tiled transpose, a warp reads one
// column of the tile: lane x asks for the float at x * pitch + y. How many wavefronts does
// one such request take? (The ideal for 4-byte accesses is 1.)
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts of one phase-1 store (a warp writes one tile row).
inline constexpr int kPredictedRowStoreWavefronts = 0; // TODO
/// Your prediction: wavefronts of one column read of a full tile with rows 32 floats apart.
inline constexpr int kPredictedColumnReadPitch32Wavefronts = 0; // TODO
/// Your prediction: the same with rows 33 floats apart.
inline constexpr int kPredictedColumnReadPitch33Wavefronts = 0; // TODO
/// Your prediction: the same with rows 34 floats apart.
inline constexpr int kPredictedColumnReadPitch34Wavefronts = 0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the tile in shared memory and the index functions the kernels use. The tests
// build the kernels' expected shared-memory traffic from these functions, so the kernels in
// exercise.cu must use them for every shared access.
// ---------------------------------------------------------------------------------------

/// Row pitch, in floats, of the plain tile of transpose_tiled.
inline constexpr int kTiledPitch = kTileDim;

/// Row pitch, in floats, of the tile of transpose_padded.
inline constexpr int kPaddedPitch = kTileDim; // TODO: pad the rows so a column read is 1 wavefront

/// Shared-memory slot (float index) of tile element (r, c) when tile rows are `Pitch`
/// floats apart.
///
///   pitch 32        col:  0    1    2  ...  31
///     row 0        bank:  0    1    2  ...  31    <- a row: 32 banks, 1 wavefront
///     row 1        bank:  0    1    2  ...  31
///     ...
///     row 31       bank:  0    1    2  ...  31
///                         ^ a column: 32 words in bank 0
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

/// Phase 2: thread (x, y) writes output element (col0 + y, row0 + x). Which tile slot holds
/// that value after phase 1?
template <int Pitch>
KIT_HD constexpr int load_slot(int x, int y) {
  return tile_slot<Pitch>(y, x); // TODO: this reads back what thread (x, y) stored itself
}

/// Elements of the tile that starts at `origin` along an axis of `n` elements (origin is a
/// multiple of kTileDim below n). A 1000 x 777 matrix has ragged tiles on its bottom and
/// right edges.
KIT_HD constexpr int tile_extent(int origin, int n) {
  return kTileDim + 0 * (origin + n); // TODO: the last tile of an axis may be shorter
}

// ---------------------------------------------------------------------------------------
// Part 3 (exercise.cu): stage each tile through shared memory.
// ---------------------------------------------------------------------------------------

/// Transposes through a kTileDim x kTiledPitch tile.
void transpose_tiled(const float* in, float* out, int rows, int cols,
                     cudaStream_t stream = nullptr);

/// Transposes through a kTileDim x kPaddedPitch tile.
void transpose_padded(const float* in, float* out, int rows, int cols,
                      cudaStream_t stream = nullptr);

} // namespace lesson05
