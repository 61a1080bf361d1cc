// attack: a function-local static whose destructor calls _Exit(0) after the tests failed (the exit status turns 0; the report is already written)
// lesson: 01
// file: exercise.hpp
// refused: static
// runtime: yes
// @top
#include <cstdlib>
// @inside
struct LeaveWell {
  ~LeaveWell() { std::_Exit(0); }
};
inline int remember() {
  static LeaveWell leave;
  return 0;
}
inline const int kRemember = remember();
