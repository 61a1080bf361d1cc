// Part 1 of the lesson: its predictions, in exercise.hpp (and Part 2's phase prediction). The
// exercise tests give a count one of them asks for only once all are written down (the predictions
// tests hold each against the bank model).
#pragma once

#include <exercise.hpp>

#include "kit/prediction.hpp"

namespace lesson07::testing {

/// Whether the student has written down every prediction of Part 1 and Part 2's phase prediction.
inline bool predictions_written() {
  return kit::predictions_written(
      kPredictedFloat4StrideOneWavefronts, kPredictedFloat4OverFloatSlowdown,
      kPredictedFloat4StrideTwoWavefronts, kPredictedFloat2BroadcastLoadWavefronts,
      kPredictedFloat2BroadcastStoreWavefronts, kPredictedFloat4ColumnPitch32Wavefronts,
      kPredictedFloat2ColumnPitch36Wavefronts, kPredictedTilePhaseWavefronts);
}

} // namespace lesson07::testing
