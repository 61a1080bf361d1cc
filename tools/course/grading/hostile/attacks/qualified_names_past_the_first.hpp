// attack: names after `::` beyond the first, which the token rules held only to the denied list: the bank model's internals, reached through kit::detail, give the ideal the predictions ask for
// lesson: 01
// file: exercise.hpp
// refused: not on the list
// @top
#include "kit/bank_model.hpp"
// @replace-line kPredictedStrideOneWavefronts
inline constexpr int kPredictedStrideOneWavefronts = kit::detail::words_per_lane(4);
