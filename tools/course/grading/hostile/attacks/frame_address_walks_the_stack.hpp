// attack: a function the tests call finds its caller's stack frame (__builtin_frame_address) and overwrites the value the test is about to compare with
// lesson: 01
// file: exercise.hpp
// refused: compiler built-ins
// @replace-function reversed_thread
inline int reversed_thread(int t, int count) {
  int* frame = static_cast<int*>(__builtin_frame_address(1));
  frame[-4] = t;
  return t + 0 * count;
}
