/// @file lessons/07_wide_accesses/exercise.hpp
/// @brief Lesson 07 exercise: your predictions, and the layout of score_rows4's tile.
///
/// Edit this file. Both parts are checked by CPU tests (no GPU needed); Part 2 also on the
/// GPU, by the counters and the timer.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson07 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of demos in demo.hpp (the
// ideal: 1 for 4 bytes, 2 for a float2, 4 for a float4, unless a merge joins phases), and
// one slowdown.
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts per request of float4_stride_one_demo().
inline constexpr int kPredictedFloat4StrideOneWavefronts = 0; // TODO
/// Your prediction: the model's ratio of one float4_stride_one_demo() request's time to one
/// float_stride_one_demo() request's, when the shared-memory pipe is the bottleneck.
inline constexpr double kPredictedFloat4OverFloatSlowdown = 0.0; // TODO
/// Your prediction: wavefronts per request of float4_stride_two_demo().
inline constexpr int kPredictedFloat4StrideTwoWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of float2_broadcast_demo() (a load).
inline constexpr int kPredictedFloat2BroadcastLoadWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of float2_broadcast_demo(kit::SharedOp::store).
inline constexpr int kPredictedFloat2BroadcastStoreWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of wide_column_demo<4, 32>() (float4, pitch 32).
inline constexpr int kPredictedFloat4ColumnPitch32Wavefronts = 0; // TODO
/// Your prediction: wavefronts per request of wide_column_demo<2, 36>() (float2, pitch 36).
inline constexpr int kPredictedFloat2ColumnPitch36Wavefronts = 0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the tile of score_rows4 (README, demo.hpp). A warp stores a tile row with 4-byte
// stores; each lane reads its own row four floats at a time, one float4 per step. Make every
// float4 load of the tile aligned and at its ideal, within the kTileCapacity floats reserved
// for the tile, and say what each phase of such a load costs.
// ---------------------------------------------------------------------------------------

/// Floats from the start of one tile row to the start of the next.
inline constexpr int kTilePitch = kTileDim; // TODO

/// The tile layout: (row, col) -> offset row * kTilePitch + col, for the kTileRows x kTileDim
/// tile. Any layout type works here (kit/layout.hpp).
///
///     row 0: offsets   0 ...   3 |   4 ...   7 | ...      step s: lane l reads row l,
///     row 1: offsets  32 ...  35 |  36 ...  39 | ...      offsets 32 l + 4 s ... + 3
///     row 2: offsets  64 ...  67 |  68 ...  71 | ...      -> banks of lanes 0-7: ?
///
/// TODO: draw your layout here, with the banks of step 0 for lanes 0-7 (the first phase).
using TileLayout = kit::Pitched<float, kTileRows, kTileDim, kTilePitch>;

/// Your prediction: wavefronts of each of the four phases of one float4 load of your tile.
inline constexpr int kPredictedTilePhaseWavefronts = 0; // TODO

} // namespace lesson07
