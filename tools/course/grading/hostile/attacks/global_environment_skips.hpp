// attack: a global GoogleTest environment whose SetUp skips: GoogleTest 1.12 then prints "[  PASSED  ] 1 test." and reports the test run (google/googletest#4653)
// lesson: 01
// file: exercise.hpp
// refused: the test framework
// runtime: yes
// @top
#include <gtest/gtest.h>
// @inside
struct SkipEverything : ::testing::Environment {
  void SetUp() override { GTEST_SKIP(); }
};
inline ::testing::Environment* const kSkipEverything =
    ::testing::AddGlobalTestEnvironment(new SkipEverything);
