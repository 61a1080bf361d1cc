/// @file tools/common/built_from.hpp
/// @brief Which tree's lesson a tool was linked with, in the words of its tables' notes. The
/// lesson library it links defines COURSE_TREE ("student" or "solution") and
/// COURSE_EXERCISE_PATH (the exercise's folder in the repository) for whatever includes the
/// lesson's headers.
#pragma once

#include <string>

#ifndef COURSE_TREE
#error "link the lesson library of a tree (lessonNN_student or lessonNN_solution)"
#endif

namespace course_tools {

/// "the reference solution, solutions/NN_topic/<file>" or "your exercise,
/// lessons/NN_topic/<file>": the file of the exercise that the linked tree compiled.
inline std::string built_from(const std::string& file) {
  const std::string tree = COURSE_TREE;
  const std::string path = std::string(COURSE_EXERCISE_PATH) + "/" + file;
  return (tree == "solution" ? "the reference solution, " : "your exercise, ") + path;
}

} // namespace course_tools
