// attack: the C library's memset over memory beyond an argument (the test's own variables), from a function the tests call
// lesson: 01
// file: exercise.hpp
// refused: library
// @replace-function reversed_thread
inline int reversed_thread(int t, int count) {
  memset(&count + 1, 0, 64);
  return t + 0 * count;
}
