// Part 1 of the lesson: its predictions, in exercise.hpp. The exercise tests give a count
// one of them asks for only once all are written down (the predictions tests hold each against
// the bank model).
#pragma once

#include <exercise.hpp>

#include "kit/prediction.hpp"

namespace lesson09::testing {

/// Whether the student has written down every prediction of Part 1.
inline bool predictions_written() {
  return kit::predictions_written(kPredictedBlockedScalar, kPredictedBlockedWideScalar,
                                  kPredictedBlockedFloat4, kPredictedAColumnRead,
                                  kPredictedTransposingStore);
}

} // namespace lesson09::testing
