// attack: `%:` is a digraph for `#`: a #define that a check for '#define' does not see
// lesson: 01
// file: exercise.hpp
// refused: digraph
// @top
%:define KIT_EXPECT_PREDICTION(a, b, c) (void)0
