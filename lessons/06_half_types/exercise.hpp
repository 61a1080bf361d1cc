/// @file lessons/06_half_types/exercise.hpp
/// @brief Lesson 06 exercise: predictions, the padding of a half-precision tile, and the
/// geometry of the scalar and half2 transposes.
///
/// Edit this file and exercise.cu. Part 1 and the padding of Part 2 are checked by CPU
/// tests with the bank model (no GPU needed), for every column of the tile and every access
/// of both kernels; Part 3 (exercise.cu) is checked on the GPU: exact results, the hardware
/// counters against the geometry below, and timings.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson06 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. How many wavefronts does one request of each demo in
// demo.hpp take? (The ideal for 2- and 4-byte accesses is 1.) And how much slower than
// stride 1 is the column read when the shared-memory pipe is the bottleneck?
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts per request of half_stride_one_demo().
inline constexpr int kPredictedHalfStrideOneWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of half_stride_two_demo().
inline constexpr int kPredictedHalfStrideTwoWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of half_column_demo().
inline constexpr int kPredictedHalfColumnWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of float_column_demo().
inline constexpr int kPredictedFloatColumnWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of half_stride_64_demo().
inline constexpr int kPredictedHalfStride64Wavefronts = 0; // TODO
/// Your prediction: half column time over half stride-1 time in a saturating launch.
inline constexpr double kPredictedHalfColumnSlowdown = 0.0; // TODO
/// Your prediction: float column time over float stride-1 time in a saturating launch.
inline constexpr double kPredictedFloatColumnSlowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the half tile. transpose_half (exercise.cu, given) moves one half per access
// through it: phase 1 stores tile rows, phase 2 reads tile columns.
// ---------------------------------------------------------------------------------------

/// Halves of padding at the end of every tile row. The same tile serves transpose_half and
/// (Part 3) transpose_half2.
inline constexpr int kHalfPad = 0; // TODO: pick a padding that makes every column read 1 wavefront

/// Row pitch of the tile, in halves.
inline constexpr int kHalfPitch = kTileDim + kHalfPad;

static_assert(kHalfPad >= 0, "padding is added, never removed");
static_assert(kTileDim * kHalfPitch * static_cast<int>(sizeof(__half)) <= 48 * 1024,
              "the tile must fit a block's static shared memory");

/// Half index of tile element (r, c): rows kHalfPitch halves apart.
///
///   pitch 32 halves = 16 words      col:  0,1   2,3  ...  30,31
///     row 0                        bank:   0     1   ...   15
///     row 1                        bank:  16    17   ...   31
///     row 2                        bank:   0     1   ...   15
///     ...
///   two halves per word, two tile rows per row of banks: a column (lane x reads row x)
///   asks banks c / 2 and 16 + c / 2 for 16 words each.
KIT_HD constexpr int half_slot(int r, int c) {
  return r * kHalfPitch + c;
}

/// Transposes through a kTileDim x kHalfPitch tile of halves, one half per access: phase 1
/// stores half_slot(y, x), phase 2 loads half_slot(x, y) (a column).
void transpose_half(const __half* in, __half* out, int rows, int cols,
                    cudaStream_t stream = nullptr);

// ---------------------------------------------------------------------------------------
// Part 3 (exercise.cu): the half2 transpose. Every shared and global access of a full tile
// moves two halves. The geometry is given; the kernel is yours, and it uses the same tile
// and the same kHalfPad.
// ---------------------------------------------------------------------------------------

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
/// A pair is one 4-byte access: its half index must be a multiple of 2 (a misaligned shared
/// access is a fault, not a slowdown). Which values of kHalfPitch keep every pair aligned,
/// and which of those keep the 32 lanes of each pair access in 32 banks?
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
