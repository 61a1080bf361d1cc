// attack: std::exit(0) in a static initializer: the test program ends with status 0 before any test runs
// lesson: 01
// file: exercise.hpp
// refused: process control
// runtime: yes
// @top
#include <cstdlib>
// @inside
inline const int kLeaveEarly = (std::exit(0), 0);
