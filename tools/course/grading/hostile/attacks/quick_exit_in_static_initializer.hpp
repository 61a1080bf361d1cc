// attack: std::quick_exit(0) in a static initializer (no atexit handlers, no report)
// lesson: 01
// file: exercise.hpp
// refused: process control
// runtime: yes
// @top
#include <cstdlib>
// @inside
inline const int kLeaveEarly = (std::quick_exit(0), 0);
