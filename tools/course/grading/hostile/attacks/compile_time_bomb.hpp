// attack: a constant the compiler must evaluate for ever: the policy's parse stops at the compiler's step limit and refuses a file that does not compile (without the policy, the build is stopped at its time limit)
// lesson: 01
// file: exercise.hpp
// refused: compile
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
