/// @file solutions/07_wide_accesses/exercise.hpp
/// @brief Lesson 07, reference solution: predictions, and the tile padded by one float4.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson07 {

// Part 1.

/// Four phases of 8 lanes, each 8 x 16 = 128 bytes, one word per bank: the ideal, 4.
inline constexpr int kPredictedFloat4StrideOneWavefronts = 4;
/// 4 wavefronts against 1 (for four times the bytes).
inline constexpr double kPredictedFloat4OverFloatSlowdown = 4.0;
/// Each phase: lanes 8 q ... 8 q + 7 at words 8 l ... 8 l + 3, two lanes per bank: 2 x 4.
inline constexpr int kPredictedFloat4StrideTwoWavefronts = 8;
/// Every pair (l, l^1) shares an address: the loads merge into one phase, one word pair.
inline constexpr int kPredictedFloat2BroadcastLoadWavefronts = 1;
/// Stores never merge: two half-warp phases, one wavefront each.
inline constexpr int kPredictedFloat2BroadcastStoreWavefronts = 2;
/// Each phase: 8 lanes on words 32 l ... 32 l + 3, all in banks 0-3: 8-way, 4 phases.
inline constexpr int kPredictedFloat4ColumnPitch32Wavefronts = 32;
/// Each half-warp: lane l at word 36 l, bank 4 l mod 32: lanes l and l + 8 share banks.
inline constexpr int kPredictedFloat2ColumnPitch36Wavefronts = 4;

// Part 2.

/// One spare float4 at the end of each row: row r starts in bank 4 r mod 32, and a row
/// start stays a multiple of 4 floats (16 bytes).
inline constexpr int kTilePitch = kTileDim + kVec;

/// Rows of 36 floats, as in `float tile[64][36]`.
///
///     row 0: offsets   0 ...   3 |   4 ...   7 | ... |  28 ...  31 | [32 ... 35]
///     row 1: offsets  36 ...  39 |  40 ...  43 | ... |  64 ...  67 | [68 ... 71]
///     step 0, lanes 0-7 (rows 0-7): banks 0-3, 4-7, 8-11, ..., 28-31
///
/// The eight lanes of a phase read rows 4 banks apart: 32 different banks, one wavefront.
/// Rows stay 32 consecutive floats, so a row store is still one wavefront.
using TileLayout = kit::Pitched<float, kTileRows, kTileDim, kTilePitch>;

/// Every phase meets each bank once: one wavefront each, four in all (the ideal).
inline constexpr int kPredictedTilePhaseWavefronts = 1;

} // namespace lesson07
