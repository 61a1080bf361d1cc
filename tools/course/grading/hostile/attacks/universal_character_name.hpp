// attack: a name spelled with a universal character name, so that a check for the spelled-out name does not see it
// lesson: 01
// file: exercise.hpp
// refused: characters
// @inside
inline const int \u0078kLeave = 0;
