// attack: a thread_local object whose destructor runs when the main thread ends, after the tests
// lesson: 01
// file: exercise.hpp
// refused: keyword
// @top
#include <cstdlib>
// @inside
struct Later {
  ~Later() { std::_Exit(0); }
};
inline thread_local Later kLater;
