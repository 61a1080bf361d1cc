// attack: a lambda called in a namespace-scope constant's initializer: its body runs before main, outside every test
// lesson: 01
// file: exercise.hpp
// refused: lambda
// @inside
inline const int kRanEarly = [] {
  int sum = 0;
  for (int i = 0; i < 32; ++i) {
    sum += i;
  }
  return sum;
}();
