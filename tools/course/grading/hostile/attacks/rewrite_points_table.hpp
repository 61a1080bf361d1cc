// attack: a static initializer that overwrites the grader's record of the points (written before any student code runs) so that lesson 01's points go to a guard test the starter passes
// lesson: 01
// file: exercise.hpp
// refused: files, the terminal and the environment
// runtime: yes
// @top
#include <cstdio>
// @inside
inline const bool kRewritePoints = [] {
  if (std::FILE* f = std::fopen(COURSE_EXERCISE_DIR "/../../build/grade/course/points.json", "w")) {
    std::fputs("{\"lessons\": {\"lesson01\": {\"points\": 10, \"tests\": "
               "{\"Layout.StageSlotIsAPermutationOfTheBlock\": 1}}}}\n", f);
    std::fclose(f);
  }
  return true;
}();
