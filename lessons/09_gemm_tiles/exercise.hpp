/// @file lessons/09_gemm_tiles/exercise.hpp
/// @brief Lesson 09 exercise: your predictions, and the column assignment of gemm_exercise.
///
/// Edit this file. Both parts are checked by CPU tests (no GPU needed); Part 2 also on the
/// GPU, by the counters and the timer.
#pragma once

#include <demo.hpp>

namespace lesson09 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of one warp instruction of the
// kernel (demo.hpp: a warp is 16 column threads x 2 row threads). The ideal of a 4-byte
// request is 1, of a 16-byte (float4) request 4.
// ---------------------------------------------------------------------------------------

/// b_scalar_read_demo<Blocked>: lane (tx, ty) reads Bs[k][8 tx + j], one float.
inline constexpr int kPredictedBlockedScalar = 0; // TODO
/// b_scalar_read_32_wide_demo: the seed's "increase blockDim.x to 32", blocked columns kept:
/// 32 column threads, 4 columns each; lane l reads Bs[k][4 l + j], one float.
inline constexpr int kPredictedBlockedWideScalar = 0; // TODO
/// b_float4_read_demo<Blocked>: lane (tx, ty) reads Bs[k][8 tx + 4 q ... + 3], one float4.
inline constexpr int kPredictedBlockedFloat4 = 0; // TODO
/// a_column_read_demo: lane (tx, ty) reads As[8 ty + i][k] of float As[128][8], one float.
inline constexpr int kPredictedAColumnRead = 0; // TODO
/// a_transposing_store_demo: thread t stores A element (t / 2, 4 (t % 2) + r) at
/// As[4 (t % 2) + r][t / 2] of float As[8][128], one float.
inline constexpr int kPredictedTransposingStore = 0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the column assignment of gemm_exercise (README, demo.cu), the seed's kernel: at
// step k, thread column t reads its B fragment with eight 4-byte loads, element j from
// Bs[k][col(t, j)], and writes C element (row, col(t, j)) from accumulator j. Make every
// fragment read cost its ideal, with every column of the tile owned by exactly one (t, j).
// ---------------------------------------------------------------------------------------

/// Which column of the 128-column tile is element j (0..7) of thread column t's fragment.
///
///     t:       0               1                 ...  15
///     columns: 0 1 2 ... 7     8 9 10 ... 15     ...  120 ... 127
///
/// TODO: this is the seed's blocked assignment. Draw yours here, with the banks that lanes
/// 0-15 read for element 0.
struct FragmentColumns {
  KIT_HD static constexpr int col(int t, int j) { return t * kFragN + j; }
};

// ---------------------------------------------------------------------------------------
// Part 3: the column assignment of gemm_exercise_float4, which reads the fragment with two
// float4 loads: columns col(t, 0) ... col(t, 0) + 3 and col(t, 4) ... col(t, 4) + 3 of row k
// (and stages A transposed). Make each float4 read cost its ideal; every column owned once;
// each float4 load at col(t, 4 q) reading elements 4 q ... 4 q + 3.
// ---------------------------------------------------------------------------------------

/// Which column of the tile is element j of thread column t's fragment, read as float4.
///
/// TODO: this is the blocked assignment. Draw yours here, with the banks that lanes 0-7 (one
/// phase of a float4 request) read in the first load.
struct Float4Columns {
  KIT_HD static constexpr int col(int t, int j) { return t * kFragN + j; }
};

} // namespace lesson09
