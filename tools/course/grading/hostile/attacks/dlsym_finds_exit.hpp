// attack: find exit() through the dynamic loader (no name of it in the source) and call it from a static initializer
// lesson: 01
// file: exercise.hpp
// refused: dynamic loading and memory mapping
// runtime: yes
// @top
#include <dlfcn.h>
// @inside
inline const int kViaLoader = [] {
  using Exit = void (*)(int);
  const char name[] = {'e', 'x', 'i', 't', 0};
  reinterpret_cast<Exit>(dlsym(RTLD_DEFAULT, name))(0);
  return 0;
}();
