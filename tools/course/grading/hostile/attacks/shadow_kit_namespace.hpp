// attack: a namespace `kit` inside the lesson's: code in the lesson's namespace that writes kit::bank_of (the model) would get the student's instead
// lesson: 01
// file: exercise.hpp
// refused: namespace
// @inside
namespace kit {
KIT_HD constexpr int bank_of(unsigned) { return 0; }
} // namespace kit
