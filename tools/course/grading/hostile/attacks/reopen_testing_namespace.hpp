// attack: reopen namespace testing (GoogleTest's) to add a listener type the tests' program would instantiate
// lesson: 01
// file: exercise.hpp
// refused: namespace
// @top
namespace testing {
struct AlwaysGreen {};
} // namespace testing
