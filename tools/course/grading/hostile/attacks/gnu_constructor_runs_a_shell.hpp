// attack: a [[gnu::constructor]] with system() bound by weakref: shell commands inside the sandbox before main
// lesson: 01
// file: exercise.hpp
// refused: attribute
// @inside
[[gnu::weakref("system")]] static int my_system(const char*);
[[gnu::constructor]] inline void look_around() {
  my_system("id; ls -la ..; cat /etc/hostname");
}
