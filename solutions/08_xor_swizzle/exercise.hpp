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
inline constexpr int kPredictedChunkColumnWavefronts = 4;
/// Your prediction: pair_column_demo(), a column of the Swizzle<4,1,4> tile.
inline constexpr int kPredictedPairColumnWavefronts = 2;
/// Your prediction: pitch34_column_demo(), a column of float tile[32][34].
inline constexpr int kPredictedPitch34ColumnWavefronts = 2;
/// Your prediction: chunk_pair_store_demo(), the float2 stores of rows 0-1 of the
/// Swizzle<3,2,3> tile.
inline constexpr int kPredictedChunkPairStoreWavefronts = 2;
/// Your prediction: plain_ldsm_demo(), an ldmatrix.x4 of half tile[16][64].
inline constexpr int kPredictedPlainLdsmWavefronts = 32;
/// Your prediction: padded_ldsm_demo(), an ldmatrix.x4 of half tile[16][72].
inline constexpr int kPredictedPaddedLdsmWavefronts = 4;

// ---------------------------------------------------------------------------------------
// Part 2: the tile of score_rows (README, demo.hpp), 32 x 32 floats in exactly 32 x 32 floats
// of shared memory: no padding. A half-warp stores a tile row with float2 stores; a warp
// reads a tile column (lane l reads row l). Make every column read cost 1 wavefront and every
// pair store its ideal 2.
// ---------------------------------------------------------------------------------------

/// The tile: (row, col) -> offset 32 row + (col ^ row): Swizzle<5,0,5> XORs the row's 5 bits
/// (offset bits 5-9) into the column's (bits 0-4, the bank).
///
///     row 0: cols  0  1  2  3 ... 31  at offsets  0  1  2  3 ... 31
///     row 1: cols  1  0  3  2 ... 30  at offsets 32 33 34 35 ... 63   (each pair swapped)
///     row 2: cols  2  3  0  1 ... 29  at offsets 64 65 66 67 ... 95
///     column c (lane l reads row l): bank c ^ l, 32 banks, 1 wavefront.
///     Pairs: (r, 2p) and (r, 2p + 1) fill the aligned pair at 32 r + (2p ^ r) rounded down
///     to even, swapped when r is odd.
using TileLayout = kit::Swizzled<TileRows, kit::Swizzle<5, 0, 5>>;

/// Phase 1's pair store of tile elements (r, 2 p) and (r, 2 p + 1): one float2 of two
/// consecutive tile offsets (8-byte aligned), the two values in order or swapped. The kernel
/// swaps them in registers when `swapped` is true, then stores the float2 at `offset`.
KIT_HD constexpr PairStore pair_store(int r, int p) {
  const int first = TileLayout{}(r, kPairFloats * p);      // element (r, 2 p)
  const int second = TileLayout{}(r, kPairFloats * p + 1); // element (r, 2 p + 1)
  return {first < second ? first : second, second < first};
}

// ---------------------------------------------------------------------------------------
// Part 3: the ldmatrix tile, 16 x 64 halves in exactly 16 x 64 halves: no padding. The
// tile is stored one 16-byte chunk (8 halves of a row) at a time and read with one
// ldmatrix.x4 per k-step (ldsm_coord, demo.hpp). Make every ldmatrix.x4 cost its ideal 4.
// ---------------------------------------------------------------------------------------

/// The fragment tile: (row, col) -> offset in halves, Swizzle<3,3,3>: the 16-byte chunk (bits
/// 3-5 of the half offset) XOR the row's low 3 bits (bits 6-8); the 8 halves of a chunk stay
/// together (bits 0-2).
///
///     row 0: chunks 0 1 2 3 4 5 6 7     rows 0-7 of a matrix (one chunk column k):
///     row 1: chunks 1 0 3 2 5 4 7 6     chunk k ^ r of row r, banks 4 (k ^ r) .. + 3:
///     ...                               8 rows, 8 chunks, 32 banks: 1 wavefront
///     row 7: chunks 7 6 5 4 3 2 1 0
using FragmentTile = kit::Swizzled<FragmentRows, kit::Swizzle<3, 3, 3>>;

} // namespace lesson08
