// attack: standard attributes the token rules never saw: C library functions bound by a string (weakref) and a destructor that writes a passing report for the filtered test where GTEST_OUTPUT says, then exits 0
// lesson: 01
// file: exercise.hpp
// refused: attribute
// @inside
struct W { int gnu; };
[[gnu::weakref("getenv")]] static char* my_env(const char*);
[[gnu::weakref("open")]] static int my_open(const char*, int, int);
[[gnu::weakref("write")]] static long my_write(int, const void*, unsigned long);
[[gnu::weakref("_exit")]] static void my_exit(int);
[[gnu::destructor]] inline void forge() {
  const char* out = my_env("GTEST_OUTPUT");
  if (out == nullptr) {
    return;
  }
  const int fd = my_open(out + 4, 01 | 0100 | 01000, 0644);
  const char xml[] = "<testsuites><testsuite><testcase name=\"BankOfMatchesTheModel\" "
                     "classname=\"Banks\" status=\"run\" result=\"completed\"/></testsuite>"
                     "</testsuites>";
  my_write(fd, xml, sizeof(xml) - 1);
  my_exit(0);
}
