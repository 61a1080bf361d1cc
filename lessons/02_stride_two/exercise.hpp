/// @file lessons/02_stride_two/exercise.hpp
/// @brief Lesson 02 exercise: predictions, the gcd law as a function, and the layout of a
/// complex correlation's tile.
///
/// Edit this file. Every part is checked by CPU tests (no GPU needed); Part 3 also on the GPU,
/// by the counters and the timer.
#pragma once

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson02 {

// Part 1: predict before you measure. Wavefronts per request of the stride demos in demo.hpp
// (4-byte loads: the ideal is 1), and the slowdown of stride 2 over stride 1.

/// Your prediction: wavefronts per request of stride_two_demo().
inline constexpr int kPredictedStrideTwoWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of stride_three_demo().
inline constexpr int kPredictedStrideThreeWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of stride_six_demo().
inline constexpr int kPredictedStrideSixWavefronts = 0; // TODO
/// Your prediction: stride-2 time over stride-1 time in a saturating launch.
inline constexpr double kPredictedStrideTwoSlowdown = 0.0; // TODO

// Part 2: the gcd law. Lane l reads float l * stride (stride 0: every lane reads float 0).

/// Wavefronts of one warp-wide 4-byte read at `stride` floats per lane, for any stride.
KIT_HD constexpr int conflict_degree(unsigned stride) {
  return 1 + 0 * static_cast<int>(stride); // TODO
}

// Part 3: the tile of correlate (README). Each block stages kTileElems complex numbers in a
// tile of kTileFloats floats; thread t then reads staged numbers t, t + 1, ..., t + kTaps - 1.
// Make every staging store and every tap load cost its width's ideal. Either route is fine:
//   - change the layout (re_offset, im_offset) and keep two 4-byte accesses, or
//   - keep each pair together and read it with one 8-byte access (kPairAccess).

/// Where the parts of staged number i (0 <= i < kTileElems) live in the tile, and how the
/// kernel accesses them. The starter interleaves the pairs, as they are in global memory:
///
///     offset: 0    1    2    3    4   ...  62    63  | 64   65  ...
///     holds:  re0  im0  re1  im1  re2 ...  re31  im31| re32 im32 ...
///
/// Lanes 0..31 read re0..re31 at offsets 0, 2, 4, ..., 62: which banks do they use, and how
/// many different words does each of those banks serve? And for im0..im31?
///
/// TODO: draw your layout here, with the banks of re0..re31.
struct TileLayout {
  /// How the kernel stages and reads a number: two_floats (Re, then Im: two 4-byte accesses)
  /// or one_float2 (the pair as one 8-byte access at re_offset(i); it needs im_offset(i) ==
  /// re_offset(i) + 1 and re_offset(i) even, 8-byte aligned).
  static constexpr PairAccess kPairAccess = PairAccess::two_floats; // TODO (maybe)
  /// Offset (in floats) of Re(staged number i).
  KIT_HD constexpr int re_offset(int i) const {
    return 2 * i; // TODO: stride 2 between the lanes of a warp
  }
  /// Offset (in floats) of Im(staged number i).
  KIT_HD constexpr int im_offset(int i) const {
    return 2 * i + 1; // TODO: stride 2 between the lanes of a warp
  }
};

} // namespace lesson02
