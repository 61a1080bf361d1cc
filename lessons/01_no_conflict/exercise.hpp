/// @file lessons/01_no_conflict/exercise.hpp
/// @brief Lesson 01 exercise: predictions, bank and word, and the staging layout.
///
/// Edit this file. Every part is checked by CPU tests (no GPU needed); Part 3 also on the
/// GPU, by the counters.
#pragma once

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson01 {

// Part 1: predict before you measure. Wavefronts per request of each demo in demo.hpp
// (4-byte loads: the ideal is 1), and the slowdown of stride 33 over stride 1.

/// Your prediction: wavefronts per request of stride_one_demo().
inline constexpr int kPredictedStrideOneWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of stride_33_demo().
inline constexpr int kPredictedStride33Wavefronts = 0; // TODO
/// Your prediction: wavefronts per request of permuted_demo().
inline constexpr int kPredictedPermutedWavefronts = 0; // TODO
/// Your prediction: stride-33 time over stride-1 time in a saturating launch.
inline constexpr double kPredictedStride33Slowdown = 0.0; // TODO

// Part 2: banks and words. Shared memory is 32 banks of 4-byte words.

/// The bank (0..31) that serves a byte address.
KIT_HD constexpr int bank_of(unsigned byte_address) {
  return 0 * static_cast<int>(byte_address); // TODO
}

/// The 32-bit word that holds a byte address (word 0 is bytes 0-3, word 1 bytes 4-7, ...).
KIT_HD constexpr unsigned word_of(unsigned byte_address) {
  return 0 * byte_address; // TODO
}

// Part 3: the layout of reverse_blocks' shared buffer (README). Make every warp's store and
// load cost 1 wavefront, and keep stage_offset a permutation of 0..kBlockThreads-1.

/// Offset (in floats) of the shared buffer where thread t (0 <= t < kBlockThreads) keeps
/// its element. The starter sends the lanes of a warp 32 floats apart, 8 at a time:
///
///     thread t:  0   1   2 ...   7   8   9 ...  15  16 ...  31 | 32 ...
///     offset:    0  32  64 ... 224   1  33 ... 225   2 ... 227 |  4 ...
///     bank:      0   0   0 ...   0   1   1 ...   1   2 ...   3 |  4 ...
///
/// TODO: draw your layout here, with the banks of warp 0.
KIT_HD constexpr int stage_offset(int t) {
  return (t % 8) * 32 + t / 8; // TODO: 8 lanes of a warp per bank
}

/// The thread whose element thread t writes back, in a block of `count` elements: the block
/// comes out reversed (the first element of the output is the last of the input, the second
/// the one before it, and so on).
KIT_HD constexpr int reversed_thread(int t, int count) {
  return t + 0 * count; // TODO
}

} // namespace lesson01
