/// @file solutions/06_half_types/exercise.hpp
/// @brief Lesson 06, reference solution: predictions, and the padded half tile.
#pragma once

#include <cuda_fp16.h>

#include <demo.hpp>

#include "kit/layout.hpp"

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

/// Two halves make a row 17 words long, an odd number: every column read is one wavefront,
/// and every row starts 4-byte aligned, which the pairs of transpose_half2 need. (One half
/// would leave the odd columns at 2 wavefronts, and put the pairs of every odd row on odd
/// offsets: a fault in transpose_half2.)
inline constexpr int kHalfPad = 2;
/// Halves from the start of one tile row to the next.
inline constexpr int kHalfPitch = kTileDim + kHalfPad;

/// Rows of 34 halves (17 words), as in `__half tile[32][34]`.
///
///   pitch 34 halves = 17 words      col:  0,1   2,3  ...  30,31 | pad
///     row 0                        bank:   0     1   ...   15   |  16
///     row 1                        bank:  17    18   ...   0    |   1
///     row 2                        bank:   2     3   ...   17   |  18
///     ...
///   a column (lane x reads row x): word 17 x + c / 2, bank (17 x + c / 2) % 32: a bank per
///   lane, because 17 is odd.
///   pairs (elements (r, 2 i) and (r, 2 i + 1), one 4-byte access): offset 34 r + 2 i is
///   even, so word 17 r + i. Phase 1, a half-warp stores column 2 j of its 16 blocks: rows
///   2 j, 34 words apart, 16 even banks (the other half-warp, i + 1, the odd ones). Phase 2,
///   the half-warps load rows c and c + 16, 16 * 17 words apart: 16 banks apart.
using HalfTileLayout = kit::Pitched<__half, kTileDim, kTileDim, kHalfPitch>;

static_assert(kit::cosize<HalfTileLayout>() * kHalfBytes <= 48 * 1024,
              "the tile must fit a block's static shared memory");

} // namespace lesson06
