// attack: the predictions computed at compile time with the kit's bank model: a prediction is the student's reasoning or it is worth nothing, so the model's functions are off every lesson's list
// lesson: 01
// file: exercise.hpp
// refused: not on the list
// @top
#include "kit/bank_model.hpp"
// @replace-line kPredictedStrideOneWavefronts
inline constexpr int kPredictedStrideOneWavefronts = kit::wavefronts(kit::strided_access(4, 1));
// @replace-line kPredictedStride33Wavefronts
inline constexpr int kPredictedStride33Wavefronts = kit::wavefronts(kit::strided_access(4, 33));
