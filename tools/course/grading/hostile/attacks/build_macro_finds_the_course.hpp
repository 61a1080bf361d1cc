// attack: the build's own macro COURSE_EXERCISE_DIR, which names the course's folder on the grader's machine (the first step of every file-tampering attack)
// lesson: 01
// file: exercise.hpp
// refused: undeclared
// @inside
inline constexpr const char* kCourseFolder = COURSE_EXERCISE_DIR;
