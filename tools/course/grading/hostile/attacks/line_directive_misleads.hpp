// attack: #line makes a failure point at a guard's test file, and hides where the code really is
// lesson: 01
// file: exercise.hpp
// refused: directive
// @inside
#line 1 "cpu_guard_layout_test.cpp"
