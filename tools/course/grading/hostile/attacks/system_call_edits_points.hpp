// attack: std::system runs a shell that edits the points table and the report's folder
// lesson: 01
// file: exercise.hpp
// refused: new processes and threads
// runtime: yes
// @top
#include <cstdlib>
// @inside
inline const int kShell = std::system(
    "sed -i 's/\"lesson01\": 10/\"lesson01\": 0/' " COURSE_EXERCISE_DIR "/../../tests/points.json; "
    "touch " COURSE_EXERCISE_DIR "/../../tools/course/pwned");
