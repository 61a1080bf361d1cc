/// @file solutions/09_gemm_tiles/exercise.hpp
/// @brief Lesson 09, reference solution: predictions, and the strided-by-four assignment.
#pragma once

#include <demo.hpp>

namespace lesson09 {

// Part 1.

/// Words 8 tx + j: tx, tx + 4, tx + 8, tx + 12 share a bank; both row threads read the same
/// words (a broadcast, no extra cost): four words in each bank used.
inline constexpr int kPredictedBlockedScalar = 4;
/// Words 4 l + j of 32 lanes: lanes l, l + 8, l + 16 and l + 24 share a bank, four different
/// words in each bank used: the wider block conflicts as much as the 16-wide one.
inline constexpr int kPredictedBlockedWideScalar = 4;
/// Phase of 8 lanes (tx 0-7): 16-byte chunks 32 bytes apart span 64 words, two chunks per
/// bank group: 2 wavefronts a phase, 4 phases.
inline constexpr int kPredictedBlockedFloat4 = 8;
/// Two words (the two row threads), 8 x 8 = 64 words apart: one bank.
inline constexpr int kPredictedAColumnRead = 2;
/// Lanes 2m and 2m + 1 write rows r and 4 + r of column m: 512 words apart, one bank.
inline constexpr int kPredictedTransposingStore = 2;

// Part 2.

/// Virtual threads: thread column t owns columns t, t + 16, ..., t + 112.
///
///     element j:  0        1          2          ...  7
///     columns:    t        16 + t     32 + t     ...  112 + t
///     banks (element j, lanes 0-15): 16 j + tx mod 32, 16 consecutive banks
///
/// The two row threads of a warp read the same 16 words: 1 wavefront, the ideal.
struct FragmentColumns {
  KIT_HD static constexpr int col(int t, int j) { return t + kThreadsX * j; }
};

// Part 3.

/// Strided by four: thread column t owns columns 4 t ... 4 t + 3 and 64 + 4 t ... 64 + 4 t + 3.
///
///     t:        0          1          ...  15            (first float4, q = 0)
///     columns:  0-3        4-7        ...  60-63
///     banks:    0-3        4-7        ...  28-31          lanes 0-7 (one phase): banks 0-31
///     second float4 (q = 1): columns 64 + 4 t ... + 3, the same banks
///
/// Each phase of 8 lanes reads 32 consecutive words: 1 wavefront, 4 for the float4: its ideal.
struct Float4Columns {
  KIT_HD static constexpr int col(int t, int j) { return 4 * t + 4 * kThreadsX * (j / 4) + j % 4; }
};

} // namespace lesson09
