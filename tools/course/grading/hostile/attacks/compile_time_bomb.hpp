// attack: a constant the compiler must evaluate for ever (within the policy: it is legal C++): the build is stopped at its time limit and the lesson does not build
// lesson: 01
// file: exercise.hpp
// refused: nothing (the build's time limit stops it)
// @inside
constexpr long spin() {
  long sum = 0;
  for (long i = 0; i < 200000; ++i) {
    for (long j = 0; j < 200000; ++j) {
      sum += i ^ j;
    }
  }
  return sum;
}
inline constexpr long kSpin = spin();
