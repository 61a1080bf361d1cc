/// @file solutions/01_no_conflict/exercise.hpp
/// @brief Lesson 01, reference solution: predictions, bank and word, and the staging layout.
#pragma once

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson01 {

// Part 1: every demo asks each bank for at most one word: one wavefront, no slowdown.

/// Stride 1: words 0..31 in banks 0..31.
inline constexpr int kPredictedStrideOneWavefronts = 1;
/// Stride 33: word 33 l is in bank l.
inline constexpr int kPredictedStride33Wavefronts = 1;
/// A permutation of one row of 32 words.
inline constexpr int kPredictedPermutedWavefronts = 1;
/// One wavefront against one wavefront.
inline constexpr double kPredictedStride33Slowdown = 1.0;

// Part 2.

/// Four bytes per bank, 32 banks: the bank pattern repeats every 128 bytes.
KIT_HD constexpr int bank_of(unsigned byte_address) {
  return static_cast<int>((byte_address / 4) % 32);
}

/// Four bytes per word.
KIT_HD constexpr unsigned word_of(unsigned byte_address) {
  return byte_address / 4;
}

// Part 3.

/// Thread t keeps its element at float t: the 32 lanes of warp w use words 32 w .. 32 w + 31,
/// one per bank. (Any layout that gives each lane of a warp its own bank works.)
///
///     thread t:  0   1   2 ...  31 | 32  33 ...
///     offset:    0   1   2 ...  31 | 32  33 ...
///     bank:      0   1   2 ...  31 |  0   1 ...
KIT_HD constexpr int stage_offset(int t) {
  return t;
}

/// Element t of the output is element count-1-t of the input. The 32 lanes of a warp read
/// 32 consecutive words in descending order: still one bank each.
KIT_HD constexpr int reversed_thread(int t, int count) {
  return count - 1 - t;
}

} // namespace lesson01
