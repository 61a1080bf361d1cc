/// @file solutions/02_stride_two/exercise.hpp
/// @brief Lesson 02, reference solution: predictions, the gcd law, and a structure-of-arrays
/// tile for the complex correlation.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson02 {

// Part 1. Stride s puts the 32 lanes on 32 / gcd(s, 32) banks, gcd(s, 32) words in each.

/// gcd(2, 32) = 2: lanes l and l + 16 share bank 2l % 32, on different words.
inline constexpr int kPredictedStrideTwoWavefronts = 2;
/// gcd(3, 32) = 1: an odd stride visits every bank once.
inline constexpr int kPredictedStrideThreeWavefronts = 1;
/// gcd(6, 32) = 2: the odd factor 3 only reorders the banks.
inline constexpr int kPredictedStrideSixWavefronts = 2;
/// Two wavefronts against one, when the shared-memory pipe is the bottleneck.
inline constexpr double kPredictedStrideTwoSlowdown = 2.0;

// Part 2.

/// gcd(stride, 32), except stride 0: every lane reads word 0, a broadcast, 1 wavefront.
KIT_HD constexpr int conflict_degree(unsigned stride) {
  if (stride == 0) {
    return 1;
  }
  unsigned a = stride;
  unsigned b = kit::kNumBanks;
  while (b != 0) { // Euclid
    const unsigned r = a % b;
    a = b;
    b = r;
  }
  return static_cast<int>(a);
}

// Part 3: structure of arrays. (One float2 per number, with the interleaved layout, is the
// other conflict-free route: 8-byte loads of consecutive pairs cost their ideal, 2.)

/// How the kernel stages and reads one complex number.
enum class PairAccess {
  two_floats, ///< kit::ld_shared(tile + re_slot(i)), then tile + im_slot(i): two 4-byte
              ///< requests.
  one_float2, ///< kit::ld_shared(reinterpret_cast<const float2*>(tile + re_slot(i))): one
              ///< 8-byte request (the pair together, re_slot(i) even: 8-byte aligned).
};

/// Two 4-byte accesses, each to 32 consecutive words.
inline constexpr PairAccess kPairAccess = PairAccess::two_floats;

/// All real parts first:
///
///     float index: 0    1    2   ...  511 | 512  513  ...  1023
///     holds:       re0  re1  re2 ...  re511| im0  im1  ...  im511
///     bank:        0    1    2   ...  31   | 0    1    ...  31
///
/// Lanes 0..31 read re of 32 consecutive numbers: 32 consecutive words, one per bank.
KIT_HD constexpr int re_slot(int i) {
  return i;
}

/// Then all imaginary parts, kTileElems floats further on.
KIT_HD constexpr int im_slot(int i) {
  return kTileElems + i;
}

/// y[i] = sum over k < kTaps of taps[k] * x[i + k] for i in [0, n), where x[j] = 0 for j >= n.
void correlate(const float2* x, float2* y, int n, const Taps& taps, cudaStream_t stream = nullptr);

/// The __global__ function behind correlate() (for the timer's occupancy check).
const void* correlate_kernel();

} // namespace lesson02
