/// @file lessons/04_broadcast/exercise.hpp
/// @brief Lesson 04 exercise: your predictions, the layout of eval_polys' coefficient table,
/// and the conflict you find in center_blocks.
///
/// Edit this file. Every part is checked by CPU tests (no GPU needed); Parts 2 and 3 also on
/// the GPU, by the counters and the timer.
#pragma once

#include <demo.hpp>

#include "kit/layout.hpp"

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
/// Your prediction: the model's ratio of two_words_one_bank_demo() time to
/// stride_one_demo() time.
inline constexpr double kPredictedTwoWordsOneBankSlowdown = 0.0; // TODO

// ---------------------------------------------------------------------------------------
// Part 2: the coefficient table of eval_polys (README, demo.hpp). At each Horner step,
// lanes 0-15 of a warp read coefficient k of polynomial q and lanes 16-31 coefficient k of
// polynomial q + 1: two broadcasts. A warp's staging store writes one polynomial's 32
// coefficients. Make both cost 1 wavefront, within the kTableCapacity floats of the table.
// ---------------------------------------------------------------------------------------

/// Floats from the start of one polynomial's coefficients to the start of the next one's.
inline constexpr int kTablePitch = kCoefs; // TODO

/// The table layout: (polynomial q, coefficient k) -> offset q * kTablePitch + k. Any layout
/// type works here (kit/layout.hpp).
///
///     q = 0: offsets  0  1 ... 31        warp 0, step k: lanes 0-15 read offset k,
///     q = 1: offsets 32 33 ... 63        lanes 16-31 offset 32 + k: two words,
///     q = 2: offsets 64 65 ... 95        -> in which banks?
///
/// TODO: draw your layout here, with the banks warp 0 reads at step k.
using CoefLayout = kit::Pitched<float, kPolysPerBlock, kCoefs, kTablePitch>;

// ---------------------------------------------------------------------------------------
// Part 3: find the conflict. center_blocks (README, demo.hpp) was handed to you with a
// complaint: "the profiler shows shared-memory bank conflicts". Find the access that
// conflicts, with the counters and bank-map (the README shows how), say how many wavefronts
// one request of it costs as you found it, then fix partial_offset so that every access
// costs 1 wavefront.
// ---------------------------------------------------------------------------------------

/// Your finding: the access that conflicts, as the kernel was handed to you.
inline constexpr CenterAccess kFoundConflictAccess = CenterAccess::none; // TODO
/// Your finding: wavefronts per request of that access, as the kernel was handed to you.
inline constexpr int kFoundConflictWavefronts = 0; // TODO

/// Offset in `partials` of warp w's partial sum (0 <= w < kCenterWarps): below
/// kPartialCapacity, a float per warp.
KIT_HD constexpr int partial_offset(int warp) {
  return warp * kLineFloats; // TODO: "one 128-byte line per warp, to avoid false sharing"
}

} // namespace lesson04
