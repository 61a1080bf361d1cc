// attack: the predictions computed at compile time with the kit's public bank model (legitimate: the policy allows it, and it earns the prediction tests' points as the model's values would; the lesson still asks the student to reason them out)
// lesson: 01
// file: exercise.hpp
// refused: nothing (allowed)
// expect: allowed
// @top
#include "kit/bank_model.hpp"
// @replace-line kPredictedStrideOneWavefronts
inline constexpr int kPredictedStrideOneWavefronts = kit::wavefronts(kit::strided_access(4, 1));
// @replace-line kPredictedStride33Wavefronts
inline constexpr int kPredictedStride33Wavefronts = kit::wavefronts(kit::strided_access(4, 33));
