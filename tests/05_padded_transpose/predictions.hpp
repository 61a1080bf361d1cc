// Part 1 of the lesson: its predictions, in exercise.hpp. The measurement lines of the GPU
// tests give a count or a ratio one of them asks for only once all are written down (the
// predictions tests hold each against the bank model).
#pragma once

#include <exercise.hpp>

#include "kit/prediction.hpp"

namespace lesson05::testing {

/// Whether the student has written down every prediction of Part 1.
inline bool predictions_written() {
  return kit::predictions_written(
      kPredictedRowStoreWavefronts, kPredictedColumnReadPitch32Wavefronts,
      kPredictedColumnReadPitch33Wavefronts, kPredictedColumnReadPitch34Wavefronts);
}

} // namespace lesson05::testing
