/// @file lessons/01_no_conflict/exercise.hpp
/// @brief Lesson 01 exercise: predictions, bank and word, and a conflict-free staging layout.
///
/// Edit this file. Part 1 and Part 2 are checked by CPU tests (no GPU needed); Part 3 is
/// checked by the model on the CPU and by the GPU's counters.
#pragma once

#include <cuda_runtime_api.h>

#include "kit/config.hpp"

namespace lesson01 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. How many wavefronts does one warp-wide request of
// each demo in demo.hpp take? (The ideal for 4-byte accesses is 1.)
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts per request of stride_one_demo().
inline constexpr int kPredictedStrideOneWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of stride_33_demo().
inline constexpr int kPredictedStride33Wavefronts = 0; // TODO
/// Your prediction: wavefronts per request of permuted_demo().
inline constexpr int kPredictedPermutedWavefronts = 0; // TODO
/// Your prediction: stride-33 time over stride-1 time in a saturating launch.
inline constexpr double kPredictedStride33Slowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: banks and words. Shared memory is 32 banks of 4-byte words.
// ---------------------------------------------------------------------------------------

/// The bank (0..31) that serves a byte address.
KIT_HD constexpr int bank_of(unsigned byte_address) {
  return 0 * static_cast<int>(byte_address); // TODO
}

/// The 32-bit word that holds a byte address (word 0 is bytes 0-3, word 1 bytes 4-7, ...).
KIT_HD constexpr unsigned word_of(unsigned byte_address) {
  return 0 * byte_address; // TODO
}

// ---------------------------------------------------------------------------------------
// Part 3: reverse every block of kBlockThreads floats through shared memory.
//
// Thread t of a block loads element t of the block, keeps it in shared memory at float
// index stage_slot(t), and after a barrier writes element t of the output from the value of
// thread reversed_thread(t, count). `count` is the number of elements in the block (the last
// block of an array may be short).
//
// The starter's layout is a permutation, so no value is lost, but the 32 lanes of a warp
// land in only 4 banks: an 8-way conflict on every store and load. And the readback is not
// reversed yet.
// ---------------------------------------------------------------------------------------

/// Threads per block, and floats per staged block.
inline constexpr int kBlockThreads = 256;

/// Float index in shared memory where thread t (0 <= t < kBlockThreads) keeps its element.
/// Must be a permutation of 0..kBlockThreads-1, and conflict-free for every warp.
KIT_HD constexpr int stage_slot(int t) {
  return (t % 8) * 32 + t / 8; // TODO: 8-way conflict; choose a conflict-free layout
}

/// The thread whose element thread t writes back, in a block of `count` elements: the block
/// comes out reversed (element t of the output is element count-1-t of the input).
KIT_HD constexpr int reversed_thread(int t, int count) {
  return t + 0 * count; // TODO
}

/// Reverses each block of kBlockThreads elements of `in` (device pointer, n elements) into
/// `out` (device pointer); the last block holds the n % kBlockThreads leftovers, if any.
void reverse_blocks(const float* in, float* out, int n, cudaStream_t stream = nullptr);

} // namespace lesson01
