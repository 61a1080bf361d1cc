/// @file lessons/08_xor_swizzle/exercise.hpp
/// @brief Lesson 08 exercise: your predictions, the swizzled tile of score_rows with its pair
/// store, and the swizzled ldmatrix tile.
///
/// Edit this file. Every part is checked by CPU tests with the bank model (no GPU needed); the
/// tiles also on the GPU, by exact results, the counters and the timer.
#pragma once

#include <cuda_fp16.h>

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson08 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of the demos in demo.hpp
// (4-byte loads: ideal 1; 8-byte stores: ideal 2; an ldmatrix.x4: ideal 4).
// ---------------------------------------------------------------------------------------

/// Your prediction: chunk_column_demo(), a column of the Swizzle<3,2,3> tile.
inline constexpr int kPredictedChunkColumnWavefronts = 0; // TODO
/// Your prediction: pair_column_demo(), a column of the Swizzle<4,1,4> tile.
inline constexpr int kPredictedPairColumnWavefronts = 0; // TODO
/// Your prediction: pitch34_column_demo(), a column of float tile[32][34].
inline constexpr int kPredictedPitch34ColumnWavefronts = 0; // TODO
/// Your prediction: chunk_pair_store_demo(), the float2 stores of rows 0-1 of the
/// Swizzle<3,2,3> tile.
inline constexpr int kPredictedChunkPairStoreWavefronts = 0; // TODO
/// Your prediction: plain_ldsm_demo(), an ldmatrix.x4 of half tile[16][64].
inline constexpr int kPredictedPlainLdsmWavefronts = 0; // TODO
/// Your prediction: padded_ldsm_demo(), an ldmatrix.x4 of half tile[16][72].
inline constexpr int kPredictedPaddedLdsmWavefronts = 0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the tile of score_rows (README, demo.hpp), 32 x 32 floats in exactly 32 x 32 floats
// of shared memory: no padding. A half-warp stores a tile row with float2 stores; a warp
// reads a tile column (lane l reads row l). Make every column read cost 1 wavefront and every
// pair store its ideal 2.
// ---------------------------------------------------------------------------------------

/// The tile: (row, col) -> offset, through the swizzles listed after TileRows (none yet:
/// offset 32 row + col). Any layout type works here (kit/layout.hpp).
///
///     row 0: offsets  0  1  2 ... 31
///     row 1: offsets 32 33 34 ... 63        column c: offsets c, 32 + c, 64 + c, ...
///     row 2: offsets 64 65 66 ... 95        -> banks ?
///
/// TODO: draw your layout here, with the banks of column 0 and where the pairs of row 1 go.
using TileLayout = kit::Swizzled<TileRows>;

/// Phase 1's pair store of tile elements (r, 2 p) and (r, 2 p + 1): one float2 of two
/// consecutive tile offsets (8-byte aligned), the two values in order or swapped. The kernel
/// swaps them in registers when `swapped` is true, then stores the float2 at `offset`.
KIT_HD constexpr PairStore pair_store(int r, int p) {
  return {TileLayout{}(r, kPairFloats * p), false}; // TODO: where do your layout's two go?
}

// ---------------------------------------------------------------------------------------
// Part 3: the ldmatrix tile, 16 x 64 halves in exactly 16 x 64 halves: no padding. The
// tile is stored one 16-byte chunk (8 halves of a row) at a time and read with one
// ldmatrix.x4 per k-step (ldsm_coord, demo.hpp). Make every ldmatrix.x4 cost its ideal 4.
// ---------------------------------------------------------------------------------------

/// The fragment tile: (row, col) -> offset in halves, through the swizzles listed after
/// FragmentRows (none yet: offset 64 row + col, a row of 128 bytes).
///
///     row 0: chunks 0 1 2 ... 7      chunk k of any row: bytes 16 k .. 16 k + 15 of the row,
///     row 1: chunks 0 1 2 ... 7      rows 128 bytes apart: which banks does chunk k of
///     ...                            rows 0-7 use?
///
/// TODO: draw your layout here, with the chunks of rows 0-7 and their banks.
using FragmentTile = kit::Swizzled<FragmentRows>;

} // namespace lesson08
