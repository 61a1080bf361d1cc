// Failures that point into the student's files (kit/testing_exercise.hpp): a name's declaration
// is found in exercise.hpp (then exercise.cu), comments and uses aside; a line a message names
// ("at exercise.cu:26") is found, a tile's declaration aside; a failure is reported there, or at
// the test's own line where the name is not found (the kit's tests have no exercise files).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

#include "kit/testing_exercise.hpp"
#include "kit/testing_matrix.hpp"

namespace {

/// A folder of exercise files for one test, removed after it.
class ExerciseFolder {
public:
  ExerciseFolder() {
    char path[] = "/tmp/kit-exercise-XXXXXX";
    dir_ = mkdtemp(path) ? path : "";
  }
  ~ExerciseFolder() {
    for (const char* file : kit::testing::kExerciseFiles) {
      std::remove((dir_ + "/" + file).c_str());
    }
    rmdir(dir_.c_str());
  }
  ExerciseFolder(const ExerciseFolder&) = delete;
  ExerciseFolder& operator=(const ExerciseFolder&) = delete;

  /// Writes `text` into `file` of the folder.
  void write(const char* file, const std::string& text) const {
    std::ofstream(dir_ + "/" + file) << text;
  }
  /// The folder.
  const std::string& dir() const { return dir_; }

private:
  std::string dir_;
};

constexpr const char* kHeader = "/// load_coord(x, y): which element? (a use in a comment)\n" // 1
                                "// kPaddedPitch = 3 in a comment\n"                          // 2
                                "/* tile_extent(0, 1) in a block\n"                           // 3
                                "   comment */\n"                                             // 4
                                "inline constexpr int kPaddedPitch = kTileDim;\n"             // 5
                                "using PaddedLayout = kit::Pitched<float, 32, 32, kPaddedPitch>;\n"
                                "KIT_HD constexpr kit::Coord load_coord(int x, int y) {\n" // 7
                                "  return {y, x};\n"                                       // 8
                                "}\n";

TEST(ExercisePlace, FindsADeclarationNotAUseOrAComment) {
  const ExerciseFolder folder;
  folder.write("exercise.hpp", kHeader);
  folder.write("exercise.cu", "#include <exercise.hpp>\n"
                              "__global__ void transpose_tile_kernel(const float* in) {\n"
                              "  const kit::Coord e = load_coord(1, 2);\n"
                              "}\n");
  const auto line_of = [&](const char* name) {
    const std::optional<kit::testing::SourcePlace> p =
        kit::testing::exercise_place(folder.dir(), name);
    return p ? p->line : 0;
  };
  EXPECT_EQ(line_of("kPaddedPitch"), 5);
  EXPECT_EQ(line_of("PaddedLayout"), 6);
  EXPECT_EQ(line_of("load_coord"), 7);
  EXPECT_EQ(line_of("tile_extent"), 0); // only in a comment
  EXPECT_EQ(line_of("Pitched"), 0);     // a qualified use: kit::Pitched<...>
  const auto kernel = kit::testing::exercise_place(folder.dir(), "transpose_tile_kernel");
  ASSERT_TRUE(kernel.has_value());
  EXPECT_EQ(kernel->file, folder.dir() + "/exercise.cu");
  EXPECT_EQ(kernel->line, 2);
  EXPECT_FALSE(kit::testing::exercise_place("", "load_coord").has_value());
}

TEST(ExercisePlace, FindsTheLineAMessageNamesNotATilesDeclaration) {
  const ExerciseFolder folder;
  folder.write("exercise.cu", "// the kernel\n");
  const std::string race = "shared-memory race on tile element (0, 8) of the tile declared at "
                           "exercise.cu:14: thread (8, 0) writes it at exercise.cu:22, and ...";
  const auto place = kit::testing::exercise_line_in(folder.dir(), race);
  ASSERT_TRUE(place.has_value());
  EXPECT_EQ(place->file, folder.dir() + "/exercise.cu");
  EXPECT_EQ(place->line, 22);
  // A line of another file, or of an exercise file that is not there: no place.
  EXPECT_FALSE(kit::testing::exercise_line_in(folder.dir(), "at internal.cuh:41").has_value());
  EXPECT_FALSE(kit::testing::exercise_line_in(folder.dir(), "at exercise.hpp:3").has_value());
  EXPECT_FALSE(kit::testing::exercise_line_in(folder.dir(), "at my_exercise.cu:3").has_value());
}

TEST(ExercisePlace, AFailureIsReportedAtThePlaceWithItsMessage) {
  const ExerciseFolder folder;
  folder.write("exercise.hpp", kHeader);
  const auto place = kit::testing::exercise_place(folder.dir(), "load_coord");
  ASSERT_TRUE(place.has_value());
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    kit::testing::FailureAt(::testing::TestPartResult::kNonFatalFailure,
                            kit::testing::place_or(place, __FILE__, __LINE__),
                            "load_coord(0, 1) is tile element (1, 0)") = ::testing::Message()
                                                                         << "and more";
  }
  ASSERT_EQ(failures.size(), 1);
  const ::testing::TestPartResult& f = failures.GetTestPartResult(0);
  EXPECT_TRUE(f.nonfatally_failed());
  EXPECT_EQ(std::string(f.file_name()), folder.dir() + "/exercise.hpp");
  EXPECT_EQ(f.line_number(), 7);
  EXPECT_EQ(std::string(f.message()), "load_coord(0, 1) is tile element (1, 0)\nand more");
}

TEST(ExercisePlace, WithoutExerciseFilesTheFailureStaysAtTheTestsLine) {
  ::testing::TestPartResultArray failures;
  int line = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    line = __LINE__ + 1;
    KIT_EXPECT_EQ_AT_EXERCISE("bank_of", 1 + 1, 3) << "byte address 4";
  }
  ASSERT_EQ(failures.size(), 1);
  const ::testing::TestPartResult& f = failures.GetTestPartResult(0);
  EXPECT_EQ(std::string(f.file_name()), __FILE__);
  EXPECT_EQ(f.line_number(), line);
  EXPECT_EQ(std::string(f.message()), "Expected equality of these values:\n  1 + 1\n    Which is: "
                                      "2\n  3\n    Which is: 3\nbyte address 4");
}

TEST(ExercisePlace, FailuresByKindReportEachKindAtItsPlace) {
  const ExerciseFolder folder;
  folder.write("exercise.hpp", kHeader);
  kit::testing::FailuresByKind kinds;
  kinds.add("output", "64 x 96", "out(0, 1) holds in(0, 1)",
            kit::testing::exercise_place(folder.dir(), "load_coord"));
  kinds.add("output", "33 x 31", "out(0, 1) holds in(0, 1)");
  kinds.add("findings", "70 x 45", "a race");
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    kinds.report("the_test.cpp", 12);
  }
  ASSERT_EQ(failures.size(), 2);
  EXPECT_EQ(std::string(failures.GetTestPartResult(0).file_name()), folder.dir() + "/exercise.hpp");
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), 7);
  EXPECT_EQ(std::string(failures.GetTestPartResult(0).message()),
            "on the 64 x 96 matrix: out(0, 1) holds in(0, 1)\n(the same on 1 more shape: 33 x 31)");
  EXPECT_EQ(std::string(failures.GetTestPartResult(1).file_name()), "the_test.cpp");
  EXPECT_EQ(failures.GetTestPartResult(1).line_number(), 12);
}

} // namespace
