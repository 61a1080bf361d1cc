// attack: a function-local static whose destructor runs at exit, after every test has been judged, where it could rewrite what the tests wrote
// lesson: 01
// file: exercise.hpp
// refused: construct
// @replace-function stage_offset
struct AtExit {
  int calls = 0;
  ~AtExit() { calls = -1; }
};
KIT_HD constexpr int stage_offset(int t) {
  return t;
}
inline int count_calls() {
  static AtExit at_exit;
  return ++at_exit.calls;
}
