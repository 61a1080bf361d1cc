// attack: `??=` is a trigraph for `#` (compilers that still read trigraphs see a #define)
// lesson: 01
// file: exercise.hpp
// refused: trigraph
// @top
??=define KIT_EXPECT_PREDICTION(a, b, c) (void)0
