// Part 3 is your own harness: exercise.cu must not hand the timing to the kit (its timer and
// the pattern bench size the grid, warm up, repeat and take medians: the whole exercise).
// The test reads this tree's exercise.cu, comments and strings removed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef COURSE_EXERCISE_DIR
#error "COURSE_EXERCISE_DIR (the folder of this tree's exercise files) comes from the build"
#endif

namespace {

/// The source without // and /* */ comments and without string and character literals.
std::string code_only(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') {
        ++i;
      }
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 1;
      out += ' ';
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i];
      for (++i; i < s.size() && s[i] != q; ++i) {
        if (s[i] == '\\') {
          ++i;
        }
      }
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

TEST(OwnHarness, ExerciseCuDoesNotCallTheKitsTimer) {
  const std::string path = std::string(COURSE_EXERCISE_DIR) + "/exercise.cu";
  std::ifstream f(path);
  ASSERT_TRUE(f) << "cannot read " << path;
  std::stringstream text;
  text << f.rdbuf();
  const std::string code = code_only(text.str());
  // Includes are read from the whole text (their file names are strings).
  const std::vector<std::string> headers = {"kit/timer.hpp", "kit/pattern_bench.hpp",
                                            "kit/testing.hpp", "kit/timing_policy.hpp"};
  for (const std::string& h : headers) {
    EXPECT_EQ(text.str().find("#include \"" + h + "\""), std::string::npos)
        << path << " includes " << h << ": write the harness with CUDA events and the "
        << "occupancy API yourself";
  }
  const std::vector<std::string> names = {"measure_slowdown",  "measure_ratio", "judge_slowdown",
                                          "judge_at_least",    "time_launch",   "saturating_blocks",
                                          "saturating_pair",   "PatternBench",  "time_with_policy",
                                          "kit::blocks_per_sm"};
  for (const std::string& n : names) {
    EXPECT_EQ(code.find(n), std::string::npos)
        << path << " uses " << n << " from the kit: that is the kit's saturating timer doing "
        << "the exercise. Time the probe kernels with cudaEventRecord / cudaEventElapsedTime "
        << "(or kit::Event) and size the grid with cudaOccupancyMaxActiveBlocksPerMultiprocessor";
  }
}

} // namespace
