// attack: an ELF constructor (it receives argv) that rewrites --gtest_filter to a guard test that passes on the starter
// lesson: 01
// file: exercise.hpp
// refused: keyword
// runtime: yes
// @top
#include <cstring>
// @inside
__attribute__((constructor)) static void run_a_guard_instead(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--gtest_filter=", 15) == 0 && std::strlen(argv[i]) >= 23) {
      std::strcpy(argv[i] + 15, "Layout.S*");
    }
  }
}
