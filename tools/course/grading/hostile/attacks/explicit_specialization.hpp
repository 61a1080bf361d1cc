// attack: an explicit specialization of a kit template, so that the tests' own instantiation uses the student's
// lesson: 01
// file: exercise.hpp
// refused: specialization
// @inside
template <>
inline int kit::cosize<int>() { return 0; }
