/// @file solutions/04_broadcast/exercise.hpp
/// @brief Lesson 04, reference solution: predictions, a padded coefficient table, and the
/// conflict found in center_blocks.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

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

/// Floats from polynomial q's first coefficient to polynomial q + 1's: one spare float.
inline constexpr int kTablePitch = kCoefs + 1;
static_assert(kPolysPerBlock * kTablePitch <= kTableCapacity, "the table must fit its buffer");

/// Polynomial q's coefficients in a row of 33 floats:
///
///     q = 0: words   0   1 ...  31  [32]        warp 0, step k: lanes 0-15 read word k,
///     q = 1: words  33  34 ...  64  [65]        lanes 16-31 word 33 + k: banks k and
///     q = 2: words  66  67 ...  97  [98]        (k + 1) % 32, two broadcasts: 1 wavefront
///
/// The staging stores write one polynomial's 32 coefficients: 32 consecutive words, 1 too.
/// (Any layout that puts polynomials q and q + 1 of a warp in different banks at every step
/// works: rotating odd rows by 16 floats, for one, costs no memory.)
KIT_HD constexpr int coef_slot(int q, int k) {
  return q * kTablePitch + k;
}

/// out[p][i] = sum over k < kCoefs of coefs[p][k] * points[i]^k.
void eval_polys(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                cudaStream_t stream = nullptr);

/// The __global__ function behind eval_polys() (for the timer's occupancy check).
const void* eval_polys_kernel();

// Part 3.

/// The shared-memory accesses of center_blocks.
enum class CenterAccess {
  none,          ///< No answer yet.
  partial_store, ///< Lane 0 of each warp stores the warp's sum: partials[partial_slot(w)].
  partial_load,  ///< Lanes 0..kCenterWarps-1 of warp 0 load partials[partial_slot(lane)].
  mean_store,    ///< Lane 0 of warp 0 stores the block's mean: partials[kMeanSlot].
  mean_load,     ///< Every lane of every warp loads partials[kMeanSlot].
};

/// Warp 0's read of the partial sums: 8 lanes, words 0, 32, ..., 224, all in bank 0. The
/// counters show it as 16 load wavefronts for 9 load requests per block; the stores are one
/// lane each, and the mean is a broadcast.
inline constexpr CenterAccess kFoundConflictAccess = CenterAccess::partial_load;
/// Eight different words of bank 0.
inline constexpr int kFoundConflictWavefronts = 8;

/// One float per warp, side by side: 8 banks. (False sharing is a CPU cache's problem; shared
/// memory has banks, not cache lines.)
KIT_HD constexpr int partial_slot(int warp) {
  return warp;
}

/// out[i] = in[i] - (mean of the block of kCenterBlockThreads samples holding i).
void center_blocks(const float* in, float* out, int n, cudaStream_t stream = nullptr);

} // namespace lesson04
