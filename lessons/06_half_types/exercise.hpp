/// @file lessons/06_half_types/exercise.hpp
/// @brief Lesson 06 exercise: your predictions, and the layout of the half tile that both
/// transposes stage through.
///
/// Edit this file (and exercise.cu, Part 3). Both parts here are checked by CPU tests with
/// the bank model (no GPU needed): the tile for every column read and every access of both
/// transposes.
#pragma once

#include <cuda_fp16.h>

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson06 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of each demo in demo.hpp (the
// ideal for 2- and 4-byte accesses is 1), and the slowdowns over stride 1 when the
// shared-memory pipe is the bottleneck.
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
// Part 2: the half tile. transpose_half stores tile rows and reads tile columns through it,
// one half per access; transpose_half2 (Part 3) stores and loads pairs of halves, element
// (r, 2 i) and the one after it, in one 4-byte access.
// ---------------------------------------------------------------------------------------

/// Halves of padding at the end of every tile row.
inline constexpr int kHalfPad = 0; // TODO: make every column read 1 wavefront, every pair aligned
/// Halves from the start of one tile row to the next.
inline constexpr int kHalfPitch = kTileDim + kHalfPad;

/// The tile: (row, col) -> offset row * kHalfPitch + col, in halves.
///
///   pitch 32 halves = 16 words, two halves per 4-byte word:
///     row 0: offsets   0,1    2,3  ...  30,31      banks: ?
///     row 1: offsets  32,33  34,35 ...  62,63      banks: ?
///     row 2: offsets  64,65  66,67 ...  94,95      banks: ?
///   A column (lane x reads row x): which banks does it ask, and for how many words each?
///   (Part 1 asks what that costs.)
///
/// TODO: draw your layout here, with the banks of a column.
using HalfTileLayout = kit::Pitched<__half, kTileDim, kTileDim, kHalfPitch>;

static_assert(kit::cosize<HalfTileLayout>() * kHalfBytes <= 48 * 1024,
              "the tile must fit a block's static shared memory");

} // namespace lesson06
