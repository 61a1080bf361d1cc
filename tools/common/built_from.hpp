/// @file tools/common/built_from.hpp
/// @brief Which lesson program this is: its name, and the tree's exercise it was built from, in
/// the words of its tables' notes. A lesson program (course_add_lesson_program in
/// cmake/CourseLesson.cmake) is built once per tree, linked with that tree's lesson library:
/// the build defines COURSE_PROGRAM (the program's name), and the lesson library
/// COURSE_TREE ("student" or "solution") and COURSE_EXERCISE_PATH (the exercise's folder in the
/// repository) for whatever includes the lesson's headers.
#pragma once

#include <string>

#ifndef COURSE_TREE
#error "link the lesson library of a tree (lessonNN_student or lessonNN_solution)"
#endif
#ifndef COURSE_PROGRAM
#error "build a lesson program with course_add_lesson_program (cmake/CourseLesson.cmake)"
#endif

namespace course_tools {

/// This program's name: `<name>` built from the student's lessons, `<name>-solution` from the
/// reference solution. Its messages start with it, and the command its tables record names it.
inline constexpr const char* kProgram = COURSE_PROGRAM;

/// "the reference solution, solutions/NN_topic/<file>" or "your exercise,
/// lessons/NN_topic/<file>": the file of the exercise that the linked tree compiled.
inline std::string built_from(const std::string& file) {
  const std::string tree = COURSE_TREE;
  const std::string path = std::string(COURSE_EXERCISE_PATH) + "/" + file;
  return (tree == "solution" ? "the reference solution, " : "your exercise, ") + path;
}

} // namespace course_tools
