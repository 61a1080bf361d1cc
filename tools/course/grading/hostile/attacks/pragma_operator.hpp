// attack: _Pragma, a directive made by the compiler from a string: no `#` for a line-based check to see
// lesson: 01
// file: exercise.hpp
// refused: keyword
// @inside
_Pragma("push_macro(\"ASSERT_EQ\")")
_Pragma("GCC poison printf")
