/// @file lessons/02_stride_two/exercise.hpp
/// @brief Lesson 02 exercise: predictions, the gcd law as a function, and a complex
/// correlation whose staged layout you make conflict-free.
///
/// Edit this file. Part 1 and Part 2 are checked by CPU tests (no GPU needed); Part 3 is
/// checked by the model on the CPU and by the GPU's counters and timer.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson02 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of the stride demos in
// demo.hpp (4-byte loads: the ideal is 1), and the slowdown of stride 2 over stride 1.
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts per request of stride_two_demo().
inline constexpr int kPredictedStrideTwoWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of stride_three_demo().
inline constexpr int kPredictedStrideThreeWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of stride_six_demo().
inline constexpr int kPredictedStrideSixWavefronts = 0; // TODO
/// Your prediction: stride-2 time over stride-1 time in a saturating launch.
inline constexpr double kPredictedStrideTwoSlowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the gcd law. Lane l reads float l * stride (stride 0: every lane reads float 0).
// ---------------------------------------------------------------------------------------

/// Wavefronts of one warp-wide 4-byte read at `stride` floats per lane, for any stride.
KIT_HD constexpr int conflict_degree(unsigned stride) {
  return 1 + 0 * static_cast<int>(stride); // TODO
}

// ---------------------------------------------------------------------------------------
// Part 3: the complex correlation of demo.hpp (y[i] = sum_k h[k] x[i + k]), in exercise.cu.
//
// Each block stages kTileElems complex numbers in a shared tile of kTileFloats floats, then
// thread t reads staged numbers t, t + 1, ..., t + kTaps - 1. Where number i's real and
// imaginary parts live in the tile, and how the kernel reads them, is decided here:
//
//   re_slot(i), im_slot(i)  the float index of Re and Im of staged number i (0 <= i < kTileElems)
//   kPairAccess             two 4-byte accesses (re, then im), or one 8-byte access (float2)
//
// The starter keeps the numbers interleaved, as they are in global memory ({re, im} pairs):
// a warp reads re of 32 consecutive numbers at float stride 2, then im at stride 2: two
// requests of 2 wavefronts each, for every tap. The results are right; the kernel is about
// twice as slow as its conflict-free twin (demo.hpp). Make every shared access of the kernel
// cost its width's ideal, with the same results. Either route is fine:
//   - change the layout (re_slot, im_slot) and keep two 4-byte accesses, or
//   - keep the pairs together and read each pair with one 8-byte access.
// ---------------------------------------------------------------------------------------

/// How the kernel stages and reads one complex number (exercise.cu: store_pair, load_pair).
enum class PairAccess {
  two_floats, ///< kit::ld_shared(tile + re_slot(i)), then tile + im_slot(i): two 4-byte
              ///< requests.
  one_float2, ///< kit::ld_shared(reinterpret_cast<const float2*>(tile + re_slot(i))): one
              ///< 8-byte request. It needs im_slot(i) == re_slot(i) + 1, and re_slot(i) even
              ///< so that the pair is 8-byte aligned (a misaligned 8-byte access faults).
};

/// How your kernel accesses a complex number in the tile.
inline constexpr PairAccess kPairAccess = PairAccess::two_floats; // TODO (maybe)

/// Float index of Re(staged number i). The starter interleaves the pairs:
///
///     float index: 0    1    2    3    4   ...  62    63  | 64   65  ...
///     holds:       re0  im0  re1  im1  re2 ...  re31  im31| re32 im32 ...
///     bank:        0    1    2    3    4   ...  30    31  | 0    1   ...
///
/// Lanes 0..31 reading re0..re31 use the even banks only, two words each: 2 wavefronts.
KIT_HD constexpr int re_slot(int i) {
  return 2 * i; // TODO: stride 2 between the lanes of a warp
}

/// Float index of Im(staged number i).
KIT_HD constexpr int im_slot(int i) {
  return 2 * i + 1; // TODO: stride 2 between the lanes of a warp
}

/// y[i] = sum over k < kTaps of taps[k] * x[i + k] for i in [0, n), where x[j] = 0 for j >= n.
/// x and y are device arrays of n complex numbers; n may be any size (0 does nothing).
void correlate(const float2* x, float2* y, int n, const Taps& taps, cudaStream_t stream = nullptr);

/// The __global__ function behind correlate() (for the timer's occupancy check).
const void* correlate_kernel();

} // namespace lesson02
