/// @file lessons/11_tma_swizzle/exercise.hpp
/// @brief Lesson 11 exercise: your predictions, and the layout that reads a box the TMA
/// wrote in the 128B mode.
///
/// Edit this file. Both parts are checked by CPU tests (no GPU needed); Part 2 also on the
/// GPU: the data your reads return, and the counters.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson11 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request (16-byte reads: the ideal is 4,
// one per quarter-warp phase; 4-byte reads: the ideal is 1).
// ---------------------------------------------------------------------------------------

/// Your prediction: plain_chunk_demo() — chunk 0 of every row of a 32 x 32 float box that the
/// TMA wrote with no swizzle (rows 128 bytes apart), 16 bytes a lane.
inline constexpr int kPredictedPlainChunkWavefronts = 0; // TODO
/// Your prediction: swizzle64_chunk_demo() — chunk 0 of every row of a 32 x 16 box written in
/// the 64B mode, read through Swizzle64Layout.
inline constexpr int kPredictedSwizzle64ChunkWavefronts = 0; // TODO
/// Your prediction: float 0 of every row of a 32 x 32 box written in the 128B mode, read
/// through the right layout, 4 bytes a lane.
inline constexpr int kPredictedSwizzle128FloatColumnWavefronts = 0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the read side of the 128B mode. The TMA wrote a kBoxRows x kBox128Cols float box
// (rows 128 bytes apart) with the 16-byte chunks of each row permuted. Give the layout that
// maps (row, col) of the box to the float offset where the TMA put that element, on the
// kit's vocabulary (kit/layout.hpp: Pitched, Swizzle<B, M, S>, Swizzled). demo.hpp has the
// 32B and 64B modes' layouts; the README has the rule.
//
//     no swizzle:  row r, chunk k at byte 128 r + 16 k        chunk 0 of rows 0-7: banks ?
//     128B mode:   row r, chunk k at byte 128 r + 16 (?)      chunk 0 of rows 0-7: banks ?
//
// TODO: replace the plain layout, and draw chunk 0's banks of rows 0-7 above.
// ---------------------------------------------------------------------------------------

/// The layout copy_tiles and score_tiles read the 128B mode's box with.
using Read128Layout = PlainBoxLayout<kBox128Cols>; // TODO

} // namespace lesson11
