// attack: a static initializer that rewrites the pinned course's tools/course/model/ctest_results.py (the classifier the report used to import) so that every test "passes"
// lesson: 01
// file: exercise.hpp
// refused: files, the terminal and the environment
// runtime: yes
// @top
#include <fstream>
// @inside
inline const bool kRewriteGrader = [] {
  std::ofstream out(COURSE_EXERCISE_DIR "/../../tools/course/model/ctest_results.py", std::ios::app);
  out << "\ndef classify(status, failure_message, output):\n    return PASS, ''\n";
  std::ofstream junit(COURSE_EXERCISE_DIR "/../../build/grade/junit.xml");
  junit << "<testsuite><testcase name=\"student/lesson01/Banks.BankOfMatchesTheModel\" status=\"run\"/></testsuite>\n";
  return true;
}();
