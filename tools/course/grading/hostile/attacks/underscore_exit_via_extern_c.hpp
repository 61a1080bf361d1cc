// attack: _exit(0) declared `extern "C"` inside the lesson's namespace (it binds to the C library's), called from a static initializer
// lesson: 01
// file: exercise.hpp
// refused: keyword
// runtime: yes
// @inside
extern "C" void _exit(int);
inline const int kLeaveEarly = (_exit(0), 0);
