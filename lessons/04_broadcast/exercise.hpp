/// @file lessons/04_broadcast/exercise.hpp
/// @brief Lesson 04 exercise: predictions, a coefficient table that two half-warps read
/// without a conflict, and a conflict to find in a kernel you did not write.
///
/// Edit this file. Every part is checked by CPU tests (no GPU needed); Parts 2 and 3 are also
/// checked on the GPU, by the counters and the timer.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson04 {

// ---------------------------------------------------------------------------------------
// Part 1: predict before you measure. Wavefronts per request of the demos in demo.hpp
// (4-byte accesses: the ideal is 1), and one slowdown.
// ---------------------------------------------------------------------------------------

/// Your prediction: wavefronts per request of one_word_demo().
inline constexpr int kPredictedOneWordWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of lane_pairs_demo().
inline constexpr int kPredictedLanePairsWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of two_words_two_banks_demo().
inline constexpr int kPredictedTwoWordsTwoBanksWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of two_words_one_bank_demo().
inline constexpr int kPredictedTwoWordsOneBankWavefronts = 0; // TODO
/// Your prediction: wavefronts per request of one_word_store_demo().
inline constexpr int kPredictedOneWordStoreWavefronts = 0; // TODO
/// Your prediction: two_words_one_bank_demo() time over stride_one_demo() time.
inline constexpr double kPredictedTwoWordsOneBankSlowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the coefficient table of eval_polys (exercise.cu; the problem is in demo.hpp).
//
// A warp is two rows of the 16 x 16 block: lanes 0-15 evaluate polynomial q = 2w, lanes 16-31
// polynomial q + 1. At each step of Horner's rule, the 16 lanes of a half-warp read the same
// coefficient: a broadcast. But the starter's table puts coefficient k of polynomial q at
// q * 32 + k, so the two half-warps' coefficients are 32 floats apart: two different words in
// ONE bank, 2 wavefronts per step. The results are right; the kernel is about twice as slow
// as its twin (demo.hpp).
//
// Write coef_slot so that every step of Horner's rule and every staging store costs 1
// wavefront: the two half-warps' words in different banks. The table holds kTableCapacity
// floats.
// ---------------------------------------------------------------------------------------

/// Float index in the shared table of coefficient k (0 <= k < kCoefs) of the block's
/// polynomial q (0 <= q < kPolysPerBlock).
///
///     q = 0: words   0   1 ...  31        warp 0, step k: lanes 0-15 read word k,
///     q = 1: words  32  33 ...  63        lanes 16-31 word 32 + k: both in bank k
///     q = 2: words  64  65 ...  95
///
/// TODO: draw your layout here, with the banks warp 0 reads at step k.
KIT_HD constexpr int coef_slot(int q, int k) {
  return q * kCoefs + k; // TODO: two half-warps, two words, one bank
}

/// out[p][i] = sum over k < kCoefs of coefs[p][k] * points[i]^k, for p < n_polys and
/// i < n_points (see demo.hpp for the layouts). Any n_polys, n_points >= 0.
void eval_polys(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                cudaStream_t stream = nullptr);

/// The __global__ function behind eval_polys() (for the timer's occupancy check).
const void* eval_polys_kernel();

// ---------------------------------------------------------------------------------------
// Part 3: find the conflict. center_blocks (exercise.cu, described in demo.hpp) was handed to
// you with a complaint: "the profiler shows shared-memory bank conflicts". It makes four
// kinds of shared-memory access. Find the one that conflicts, with the counters and bank-map
// (the README shows how), say how many wavefronts one request of it costs as you found it,
// then fix partial_slot so that every access costs 1 wavefront.
// ---------------------------------------------------------------------------------------

/// The shared-memory accesses of center_blocks.
enum class CenterAccess {
  none,          ///< No answer yet.
  partial_store, ///< Lane 0 of each warp stores the warp's sum: partials[partial_slot(w)].
  partial_load,  ///< Lanes 0..kCenterWarps-1 of warp 0 load partials[partial_slot(lane)].
  mean_store,    ///< Lane 0 of warp 0 stores the block's mean: partials[kMeanSlot].
  mean_load,     ///< Every lane of every warp loads partials[kMeanSlot].
};

/// Your finding: the access that conflicts, as the kernel was handed to you.
inline constexpr CenterAccess kFoundConflictAccess = CenterAccess::none; // TODO
/// Your finding: wavefronts per request of that access, as the kernel was handed to you.
inline constexpr int kFoundConflictWavefronts = 0; // TODO

/// Float index in `partials` of warp w's partial sum (0 <= w < kCenterWarps). Must stay below
/// kPartialCapacity, one float per warp.
KIT_HD constexpr int partial_slot(int warp) {
  return warp * kLineFloats; // TODO: "one 128-byte line per warp, to avoid false sharing"
}

/// out[i] = in[i] - (mean of the block of kCenterBlockThreads samples holding i); the last
/// block may be short and averages only the samples it has. Any n >= 0; device arrays.
void center_blocks(const float* in, float* out, int n, cudaStream_t stream = nullptr);

} // namespace lesson04
