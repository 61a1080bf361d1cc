// attack: #undef and #define the assertion macros after <gtest/gtest.h> (every test file includes it first): the tests compile to nothing and pass
// lesson: 01
// file: exercise.hpp
// refused: directive
// runtime: no (only the policy stops it: the tests that include this file check nothing, and their reports say passed)
// @top
#undef ASSERT_EQ
#define ASSERT_EQ(a, b) if (true) {} else std::cerr
#undef ASSERT_TRUE
#define ASSERT_TRUE(a) if (true) {} else std::cerr
#undef EXPECT_EQ
#define EXPECT_EQ(a, b) if (true) {} else std::cerr
#undef KIT_EXPECT_PREDICTION
#define KIT_EXPECT_PREDICTION(a, b, c) (void)0
