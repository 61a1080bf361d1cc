// attack: a backslash-newline inside the directive's name: `#def\ine` is #define to the compiler, not to a check that reads lines
// lesson: 01
// file: exercise.hpp
// refused: line splice
// @top
#def\
ine ASSERT_EQ(a, b) if (true) {} else std::cerr
