// attack: print tens of megabytes from every test, the kit's measurement lines among them, so that the report (kept where the student can download it) or the grader's memory overflows
// lesson: 01
// file: exercise.hpp
// refused: files, the terminal and the environment
// runtime: yes
// @top
#include <cstdio>
#include <string>
// @inside
inline const bool kFlood = [] {
  const std::string filler(4000, 'x');
  for (int i = 0; i < 4000; ++i) {
    std::printf("[kit-slowdown] %d over the starter: measured 9.99x model 1.00x %s\n%s\n", i,
                filler.c_str(), filler.c_str());
  }
  return true;
}();
