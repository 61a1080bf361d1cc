// attack: Part 2 without the work: bank_of and word_of return the kit's own functions, the very ones the tests compare against
// lesson: 01
// file: exercise.hpp
// refused: not on the list
// @top
#include "kit/bank_model.hpp"
// @replace-function bank_of
KIT_HD constexpr int bank_of(unsigned byte_address) { return kit::bank_of(byte_address); }
// @replace-function word_of
KIT_HD constexpr unsigned word_of(unsigned byte_address) { return kit::word_of(byte_address); }
