// attack: the student's own lesson.json lists a header and a std name for lesson 01 and makes the lesson worth 1000 points; the exercise uses them
// lesson: 01
// file: exercise.hpp
// refused: include
// runtime: no
// @top
#include <vector>
// @inside
inline const std::vector<int> kListedByMe{1, 2, 3};
// @student-manifest
{"points": 1000, "policy": {"headers": ["vector"], "std": ["vector"], "names": ["system"]}}
