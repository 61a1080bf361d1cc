/// @file solutions/06_half_types/exercise.hpp
/// @brief Lesson 06, reference solution: predictions, the padding of the half tile, and the
/// geometry of the scalar and half2 transposes.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson06 {

// Part 1: what decides a conflict is which 32-bit words each bank is asked for.

/// Lanes 2k and 2k + 1 share word k: 16 words, 16 banks.
inline constexpr int kPredictedHalfStrideOneWavefronts = 1;
/// Word l for lane l: 32 banks.
inline constexpr int kPredictedHalfStrideTwoWavefronts = 1;
/// Word 16 l: banks 0 and 16, 16 words each.
inline constexpr int kPredictedHalfColumnWavefronts = 16;
/// Word 32 l: bank 0, 32 words.
inline constexpr int kPredictedFloatColumnWavefronts = 32;
/// Byte 128 l: bank 0, 32 words.
inline constexpr int kPredictedHalfStride64Wavefronts = 32;
/// 16 wavefronts against 1.
inline constexpr double kPredictedHalfColumnSlowdown = 16.0;
/// 32 wavefronts against 1.
inline constexpr double kPredictedFloatColumnSlowdown = 32.0;

// Part 2: the half tile.

/// Halves of padding at the end of every tile row. Two make a row 17 words long, an odd
/// number: every column read is one wavefront, and every row starts 4-byte aligned, which
/// the half2 kernel needs. (One half would leave the odd columns at 2 wavefronts, and put
/// the pairs of every odd row on odd halves: a fault in transpose_half2.)
inline constexpr int kHalfPad = 2;

/// Row pitch of the tile, in halves.
inline constexpr int kHalfPitch = kTileDim + kHalfPad;

static_assert(kHalfPad >= 0, "padding is added, never removed");
static_assert(kTileDim * kHalfPitch * static_cast<int>(sizeof(__half)) <= 48 * 1024,
              "the tile must fit a block's static shared memory");

/// Half index of tile element (r, c): rows kHalfPitch halves apart.
///
///   pitch 34 halves = 17 words      col:  0,1   2,3  ...  30,31 | pad
///     row 0                        bank:   0     1   ...   15   |  16
///     row 1                        bank:  17    18   ...   0    |   1
///     row 2                        bank:   2     3   ...   17   |  18
///     ...
///   a column (lane x reads row x): word 17 x + c / 2 -> bank (17 x + c / 2) % 32, a bank
///   per lane because 17 is odd.
KIT_HD constexpr int half_slot(int r, int c) {
  return r * kHalfPitch + c;
}

/// Transposes through a kTileDim x kHalfPitch tile of halves, one half per access: phase 1
/// stores half_slot(y, x), phase 2 loads half_slot(x, y) (a column).
void transpose_half(const __half* in, __half* out, int rows, int cols,
                    cudaStream_t stream = nullptr);

// Part 3: the half2 transpose (every shared access moves two halves).

/// Lanes in a half-warp.
inline constexpr int kHalfWarp = kit::kWarpSize / 2;
/// Phase-2 steps of a warp: each step writes two output rows of the tile.
inline constexpr int kPairSteps = kTileDim / (2 * kBlockRows);

static_assert(2 * kBlockRows * 2 == kTileDim,
              "phase 1: the 8 warps x 2 half-warps cover the 16 row pairs of a tile once");
static_assert(kHalfWarp * 2 == kTileDim, "a half-warp covers the 16 column pairs of a tile row");

/// Phase 1: the 2 x 2 block that lane `lane` of warp `w` moves is rows 2 i, 2 i + 1 and
/// columns 2 j, 2 j + 1 of the tile, with i = block_row_pair(w, lane) and
/// j = block_col_pair(lane). Half-warp h of warp w takes row pair 2 w + h; its 16 lanes the
/// 16 column pairs (each global load is two 64-byte row segments).
KIT_HD constexpr int block_row_pair(int w, int lane) {
  return 2 * w + lane / kHalfWarp;
}
/// See block_row_pair.
KIT_HD constexpr int block_col_pair(int lane) {
  return lane % kHalfWarp;
}

/// Half index of the pair (input rows 2 i and 2 i + 1 of input column c) in the tile: tile
/// row c holds input column c (an output row), its rows in pairs.
///
///   input block            registers (half2)          tile row (= input column)
///   row 2i:    a  b        (a, c): column 2j     ->   row 2j:     ... a c ...  at half 2i
///   row 2i+1:  c  d        (b, d): column 2j + 1 ->   row 2j + 1: ... b d ...  at half 2i
///
/// A pair is one 4-byte access: its half index must be even, so every tile row must start on
/// an even half: kHalfPitch even. With kHalfPitch = 2 Q halves (Q words):
///   phase 1, the column-2j store of lane (h, j): word 2 j Q + i: the 16 lanes of a
///            half-warp are 2 Q words apart, 16 different even banks when Q is odd, and the
///            other half-warp (i + 1) takes the odd banks;
///   phase 2, the pair load of output row c: word c Q + i: the half-warps read rows c and
///            c + 16, 16 Q words apart, which is 16 banks apart when Q is odd.
KIT_HD constexpr int pair_slot(int c, int i) {
  return half_slot(c, 2 * i);
}

/// Phase 2: in step k, lane `lane` of warp `w` writes output tile row out_row(w, k, lane),
/// pair out_pair(lane) of it (output columns 2 i and 2 i + 1). Half-warp h takes row
/// w + kBlockRows k + 16 h.
KIT_HD constexpr int out_row(int w, int k, int lane) {
  return w + kBlockRows * k + kHalfWarp * (lane / kHalfWarp);
}
/// See out_row.
KIT_HD constexpr int out_pair(int lane) {
  return lane % kHalfWarp;
}

/// True when transpose_half2 can move a rows x cols matrix in pairs: every row of the input
/// and of the output starts 4-byte aligned (rows and cols even). Other matrices, and ragged
/// tiles, go through the scalar path of transpose_half.
KIT_HD constexpr bool pairs_fit(int rows, int cols) {
  return rows % 2 == 0 && cols % 2 == 0;
}

/// Transposes with half2 accesses: full tiles (when pairs_fit) move in 2 x 2 blocks through
/// the same kTileDim x kHalfPitch tile, two halves per shared and global access; ragged
/// tiles and odd shapes take transpose_half's path.
void transpose_half2(const __half* in, __half* out, int rows, int cols,
                     cudaStream_t stream = nullptr);

} // namespace lesson06
