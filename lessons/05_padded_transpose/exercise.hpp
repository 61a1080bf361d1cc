/// @file lessons/05_padded_transpose/exercise.hpp
/// @brief Lesson 05 exercise, Parts 1 and 2 (Part 3, the kernel, is in exercise.cu). Checked
/// on the CPU: by the bank model, and by a CPU run of the kernel built from these functions.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson05 {

// Part 1: predict. Wavefronts of one request (4-byte accesses: the ideal is 1). In phase 2 a
// warp reads tile column y: lane x reads the float at x * pitch + y.

/// Your prediction: a phase-1 store (a warp writes one tile row).
inline constexpr int kPredictedRowStoreWavefronts = 0; // TODO
/// Your prediction: a column read of a tile whose rows are 32 floats apart.
inline constexpr int kPredictedColumnReadPitch32Wavefronts = 0; // TODO
/// Your prediction: the same with rows 33 floats apart.
inline constexpr int kPredictedColumnReadPitch33Wavefronts = 0; // TODO
/// Your prediction: the same with rows 34 floats apart.
inline constexpr int kPredictedColumnReadPitch34Wavefronts = 0; // TODO

// Part 2: transpose_padded's tile, and where thread (x, y) reads it in phase 2. The tests
// build the kernels' shared-memory traffic from these: the kernel must use them.

/// Floats from the start of one row of transpose_padded's tile to the next.
inline constexpr int kPaddedPitch = kTileDim; // TODO: a column read must cost 1 wavefront

/// transpose_padded's tile: element (r, c) at offset r * kPaddedPitch + c.
///     row 0: offsets  0  1 ... 31         column c: offsets c, 32 + c, 64 + c, ...
///     row 1: offsets 32 33 ... 63         -> banks ?
/// TODO: draw your layout here, with the banks of column 0.
using PaddedLayout = kit::Pitched<float, kTileDim, kTileDim, kPaddedPitch>;

/// Phase 2: thread (x, y) writes output element (col0 + y, row0 + x). Which tile element
/// holds that value after phase 1 (store_coord, demo.hpp)?
KIT_HD constexpr kit::Coord load_coord(int x, int y) {
  return {y, x}; // TODO: this reads back what thread (x, y) stored itself
}

/// Elements of the tile that starts at `origin` on an axis of `n` elements (origin is a
/// multiple of kTileDim below n): 1000 x 777 has ragged tiles on its bottom and right edges.
KIT_HD constexpr int tile_extent(int origin, int n) {
  return kTileDim + 0 * (origin + n); // TODO: the last tile of an axis may be shorter
}

} // namespace lesson05
