/// @file solutions/04_broadcast/exercise.hpp
/// @brief Lesson 04, reference solution: predictions, a padded coefficient table, and the
/// conflict found in center_blocks.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson04 {

// Part 1. A bank serves one word per wavefront, to as many lanes as ask for it.

/// One word: every lane gets it in the same wavefront.
inline constexpr int kPredictedOneWordWavefronts = 1;
/// 16 words in 16 banks, each word shared by two lanes.
inline constexpr int kPredictedLanePairsWavefronts = 1;
/// Two words in two banks.
inline constexpr int kPredictedTwoWordsTwoBanksWavefronts = 1;
/// Two words in one bank: the bank needs two wavefronts.
inline constexpr int kPredictedTwoWordsOneBankWavefronts = 2;
/// One word, one wavefront; one lane's value is kept (which one is undefined).
inline constexpr int kPredictedOneWordStoreWavefronts = 1;
/// Two wavefronts against one.
inline constexpr double kPredictedTwoWordsOneBankSlowdown = 2.0;

// Part 2.

/// One spare float after each polynomial: polynomial q starts in bank q % 32.
inline constexpr int kTablePitch = kCoefs + 1;

/// Rows of 33 floats, as in `float table[16][33]`:
///
///     q = 0: offsets  0  1 ... 31  [32]        warp 0, step k: lanes 0-15 read offset k,
///     q = 1: offsets 33 34 ... 64  [65]        lanes 16-31 offset 33 + k: banks k and
///     q = 2: offsets 66 67 ... 97  [98]        (k + 1) % 32, two broadcasts: 1 wavefront
///
/// The staging stores write one polynomial's 32 coefficients: 32 consecutive offsets, 1
/// wavefront too. (Any layout that puts polynomials q and q + 1 of a warp in different banks
/// at every step works: rotating the odd rows by 16 floats, for one, costs no memory.)
using CoefLayout = kit::Pitched<float, kPolysPerBlock, kCoefs, kTablePitch>;

// Part 3.

/// Warp 0's load of the partial sums: 8 lanes, offsets 0, 32, ..., 224, all in bank 0. The
/// counters show it as 16 load wavefronts for 9 load requests per block; the stores are one
/// lane each, and the mean is a broadcast.
inline constexpr CenterAccess kFoundConflictAccess = CenterAccess::partial_load;
/// Eight different words of bank 0.
inline constexpr int kFoundConflictWavefronts = 8;

/// One float per warp, side by side: banks 0-7. (False sharing is a CPU cache's problem;
/// shared memory has banks, not cache lines.)
KIT_HD constexpr int partial_offset(int warp) {
  return warp;
}

} // namespace lesson04
