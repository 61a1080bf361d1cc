// attack: a standard-library call the lesson's list does not name (std::this_thread::sleep_for), to make a timing test's other kernel look slow or the GPU look busy
// lesson: 01
// file: exercise.hpp
// refused: not on the list
// @top
#include <thread>
// @replace-function reversed_thread
inline int reversed_thread(int t, int count) {
  std::this_thread::sleep_for(std::chrono::microseconds(1));
  return t + 0 * count;
}
