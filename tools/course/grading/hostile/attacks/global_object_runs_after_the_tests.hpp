// attack: a global object whose constructor and destructor are the student's code, run before the first test and after GoogleTest wrote its report (where a report can be rewritten): only `constexpr` variables at namespace scope keep code inside the tests
// lesson: 01
// file: exercise.hpp
// refused: constexpr
// @inside
struct Stamp {
  int calls = 0;
  Stamp() { calls = reversed_thread(0, 1); }
  ~Stamp() { calls = stage_offset(calls); }
};
inline Stamp kStamp;
