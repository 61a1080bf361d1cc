// attack: characters that are no C++ punctuation (`@`, `$` in names), which some compilers accept and a checker may skip
// lesson: 01
// file: exercise.hpp
// refused: characters
// @inside
inline constexpr int $kHidden = 0;
