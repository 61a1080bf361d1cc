/// @file solutions/02_stride_two/exercise.hpp
/// @brief Lesson 02, reference solution: predictions, the gcd law, and a structure-of-arrays
/// tile for the complex correlation.
#pragma once

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

/// All real parts first, then all imaginary parts:
///
///     offset: 0    1    2   ...  511  | 512  513  ...  1023
///     holds:  re0  re1  re2 ...  re511| im0  im1  ...  im511
///     bank:   0    1    2   ...  31   | 0    1    ...  31
///
/// Lanes 0..31 read re of 32 consecutive numbers: 32 consecutive words, one per bank.
struct TileLayout {
  /// Two 4-byte accesses, each to 32 consecutive words.
  static constexpr PairAccess kPairAccess = PairAccess::two_floats;
  /// Offset (in floats) of Re(staged number i).
  KIT_HD constexpr int re_offset(int i) const { return i; }
  /// Offset (in floats) of Im(staged number i): kTileElems floats after the real parts.
  KIT_HD constexpr int im_offset(int i) const { return kTileElems + i; }
};

} // namespace lesson02
