// attack: an atexit handler that turns the failing program's exit status into 0
// lesson: 01
// file: exercise.hpp
// refused: process control
// runtime: yes
// @top
#include <cstdlib>
// @inside
inline const int kAtExit = (std::atexit([] { std::_Exit(0); }), 0);
