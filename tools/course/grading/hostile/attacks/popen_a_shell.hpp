// attack: popen a shell from a function the tests call
// lesson: 01
// file: exercise.hpp
// refused: new processes and threads
// @top
#include <cstdio>
// @inside
inline int shell_out() {
  std::FILE* p = popen("echo [  SKIPPED ] everything", "r");
  return p ? pclose(p) : 0;
}
