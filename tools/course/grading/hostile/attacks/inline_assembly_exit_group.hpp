// attack: inline assembly: the exit_group system call with status 0, from a static initializer
// lesson: 01
// file: exercise.hpp
// refused: keyword
// runtime: yes
// @inside
inline const int kAssembly = [] {
  asm volatile("mov $231, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "rax", "rdi", "memory");
  return 0;
}();
