// attack: fork a detached poller that waits for the grader's build/grade/junit.xml and rewrites it between ctest writing it and the report reading it
// lesson: 01
// file: exercise.hpp
// refused: new processes and threads
// runtime: yes
// @top
#include <cstdio>
#include <unistd.h>
// @inside
inline const bool kPoller = [] {
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      for (int i = 0; i < 600; ++i) {
        if (std::FILE* f = std::fopen(COURSE_EXERCISE_DIR "/../../build/grade/junit.xml", "a")) {
          std::fputs("<!-- rewritten -->\n", f);
          std::fclose(f);
        }
        usleep(100000);
      }
    }
    _exit(0);
  }
  return true;
}();
