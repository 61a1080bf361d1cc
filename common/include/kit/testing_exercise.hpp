/// @file testing_exercise.hpp
/// @brief Failures that point into the student's files. A test that judges a constant, a
/// function or a type of the lesson's exercise files reports its failure at that name's line
/// there, so the first place a student reads is their own code, not the test's:
///
///     /work/course/lessons/05_padded_transpose/exercise.hpp:43: Failure
///     load_coord(0, 1) is tile element (1, 0). Thread (x = 0, y = 1) ...
///
///     KIT_ASSERT_AT_EXERCISE("load_coord", same_element(got, want)) << "load_coord(0, 1) ...";
///     KIT_ASSERT_EQ_AT_EXERCISE("bank_of", lesson01::bank_of(a), kit::bank_of(a)) << "...";
///
/// and a message that names a line of the student's files ("... at exercise.cu:26 ...", as the
/// CPU run of a kernel names its findings) is reported there (kit::testing::exercise_line_in).
/// The files are this tree's (COURSE_EXERCISE_DIR, from the build: lessons/NN_topic or
/// solutions/NN_topic, exercise.hpp then exercise.cu). Where a name is not found, or the program
/// was built without them (the kit's own tests), the failure stays at the test's line.
/// Host code (GoogleTest): the lessons' CPU tests use it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

/// The folder of this tree's exercise files ("" where the build names none: the kit's tests).
#if defined(COURSE_EXERCISE_DIR)
#define KIT_EXERCISE_DIR COURSE_EXERCISE_DIR
#else
#define KIT_EXERCISE_DIR ""
#endif

namespace kit::testing {

/// A line of a source file, as a failure is reported at it.
struct SourcePlace {
  std::string file; ///< The file's path.
  int line = 0;     ///< Its line (from 1).
};

/// The exercise files a lesson may have, searched in this order.
inline constexpr const char* kExerciseFiles[] = {"exercise.hpp", "exercise.cu"};

namespace detail {

/// `text` without its comments (`// ...` to the end of a line, `/* ... */` anywhere), each
/// replaced by spaces so that lines keep their numbers. String literals are left as they are.
inline std::string without_comments(const std::string& text) {
  std::string out = text;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == '"') { // a string literal: skip to its end
      for (++i; i < out.size() && out[i] != '"' && out[i] != '\n'; ++i) {
        if (out[i] == '\\') {
          ++i;
        }
      }
    } else if (out.compare(i, 2, "//") == 0) {
      for (; i < out.size() && out[i] != '\n'; ++i) {
        out[i] = ' ';
      }
    } else if (out.compare(i, 2, "/*") == 0) {
      const std::size_t end = out.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i) {
        if (out[i] != '\n') {
          out[i] = ' ';
        }
      }
      --i;
    }
  }
  return out;
}

/// The whole of file `path`, or nothing when it cannot be read.
inline std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

} // namespace detail

/// The line of file `path` that declares `name`: the first line, comments aside, where the
/// identifier, not qualified, is followed by `=`, `(` or `{` (a constant, a function, a type
/// alias); a header declares a name before it uses it. Nothing when there is none.
inline std::optional<int> declaration_line(const std::string& path, std::string_view name) {
  const std::optional<std::string> text = detail::read_text(path);
  if (!text || name.empty()) {
    return std::nullopt;
  }
  const std::string code = detail::without_comments(*text);
  for (std::size_t at = code.find(name); at != std::string::npos;
       at = code.find(name, at + name.size())) {
    const std::size_t end = at + name.size();
    if ((at > 0 &&
         (detail::identifier_char(code[at - 1]) || code[at - 1] == '.' || code[at - 1] == ':')) ||
        (end < code.size() && detail::identifier_char(code[end]))) {
      continue; // part of another identifier, or a qualified use
    }
    std::size_t next = end;
    while (next < code.size() && (code[next] == ' ' || code[next] == '\t')) {
      ++next;
    }
    if (next < code.size() && (code[next] == '=' || code[next] == '(' || code[next] == '{') &&
        code.compare(next, 2, "==") != 0) {
      return 1 + static_cast<int>(std::count(code.begin(), code.begin() + at, '\n'));
    }
  }
  return std::nullopt;
}

/// Where `name` is declared in the exercise files of folder `dir` (exercise.hpp, then
/// exercise.cu); nothing when `dir` is empty or no file declares it.
inline std::optional<SourcePlace> exercise_place(const std::string& dir, std::string_view name) {
  if (dir.empty()) {
    return std::nullopt;
  }
  for (const char* file : kExerciseFiles) {
    const std::string path = dir + "/" + file;
    if (const std::optional<int> line = declaration_line(path, name)) {
      return SourcePlace{path, *line};
    }
  }
  return std::nullopt;
}

/// The first line of an exercise file of `dir` that `message` names as "exercise.cu:26" or
/// "exercise.hpp:43" (how the CPU run of a kernel names its lines), a tile's declaration ("the
/// tile declared at exercise.cu:14") aside, when that file is there; nothing otherwise.
inline std::optional<SourcePlace> exercise_line_in(const std::string& dir,
                                                   const std::string& message) {
  if (dir.empty()) {
    return std::nullopt;
  }
  static const std::string declared = "declared at ";
  // "exercise.hpp:43" or "exercise.cu:26", not inside a longer name or path (scanned by hand:
  // <regex> would add half a second to the compile of every lesson's CPU tests).
  for (std::size_t at = message.find("exercise."); at != std::string::npos;
       at = message.find("exercise.", at + 1)) {
    if (at > 0 && (detail::identifier_char(message[at - 1]) || message[at - 1] == '.' ||
                   message[at - 1] == '/')) {
      continue;
    }
    std::size_t colon = std::string::npos;
    for (const char* file : kExerciseFiles) {
      const std::string_view name(file);
      if (message.compare(at, name.size(), name) == 0 && at + name.size() < message.size() &&
          message[at + name.size()] == ':') {
        colon = at + name.size();
      }
    }
    std::size_t digits = colon == std::string::npos ? colon : colon + 1;
    while (digits != std::string::npos && digits < message.size() &&
           std::isdigit(static_cast<unsigned char>(message[digits])) != 0) {
      ++digits;
    }
    if (colon == std::string::npos || digits == colon + 1) {
      continue;
    }
    if (at >= declared.size() &&
        message.compare(at - declared.size(), declared.size(), declared) == 0) {
      continue;
    }
    const std::string path = dir + "/" + message.substr(at, colon - at);
    if (!detail::read_text(path)) {
      return std::nullopt;
    }
    return SourcePlace{path, std::stoi(message.substr(colon + 1, digits - colon - 1))};
  }
  return std::nullopt;
}

/// `place` when there is one, else `file`:`line` (the test's own line).
inline SourcePlace place_or(const std::optional<SourcePlace>& place, const char* file, int line) {
  return place ? *place : SourcePlace{file, line};
}

/// Success when `a == b`; otherwise GoogleTest's own words for EXPECT_EQ ("Expected equality of
/// these values: ... Which is: ...").
template <class A, class B>
::testing::AssertionResult equal(const char* a_text, const char* b_text, const A& a, const B& b) {
  if (a == b) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "Expected equality of these values:\n  " << a_text
         << "\n    Which is: " << ::testing::PrintToString(a) << "\n  " << b_text
         << "\n    Which is: " << ::testing::PrintToString(b);
}

/// One failure of the running test at `place`: `message`, then whatever the test streams after
/// it (what the KIT_*_AT_EXERCISE macros expand to).
class FailureAt {
public:
  /// A failure of `type` at `place`, with `message`.
  FailureAt(::testing::TestPartResult::Type type, SourcePlace place, std::string message)
      : type_(type), place_(std::move(place)), message_(std::move(message)) {}
  /// Reports it, with `more` after the message.
  void operator=(const ::testing::Message& more) const {
    ::testing::internal::AssertHelper(type_, place_.file.c_str(), place_.line, message_.c_str()) =
        more;
  }

private:
  ::testing::TestPartResult::Type type_;
  SourcePlace place_;
  std::string message_;
};

} // namespace kit::testing

/// @cond internal
#define KIT_CHECK_AT_EXERCISE_(name, result, type, on_failure)                                     \
  GTEST_AMBIGUOUS_ELSE_BLOCKER_                                                                    \
  if (const ::testing::AssertionResult kit_result_ = ::testing::AssertionResult(result))           \
    ;                                                                                              \
  else                                                                                             \
    on_failure ::kit::testing::FailureAt(                                                          \
        ::testing::TestPartResult::type,                                                           \
        ::kit::testing::place_or(::kit::testing::exercise_place(KIT_EXERCISE_DIR, name), __FILE__, \
                                 __LINE__),                                                        \
        kit_result_.message()) = ::testing::Message()
/// @endcond

/// Expects `result` (a `testing::AssertionResult`, or a bool) to hold; a failure is reported at
/// the line of `name` (a string: "load_coord") in the exercise files, or at the test's line where
/// it is not found. More words may be streamed after it, as after EXPECT_TRUE.
#define KIT_EXPECT_AT_EXERCISE(name, result)                                                       \
  KIT_CHECK_AT_EXERCISE_(name, result, kNonFatalFailure, )
/// KIT_EXPECT_AT_EXERCISE that ends the test (as ASSERT_TRUE: in a function returning void).
#define KIT_ASSERT_AT_EXERCISE(name, result)                                                       \
  KIT_CHECK_AT_EXERCISE_(name, result, kFatalFailure, return )
/// EXPECT_EQ(a, b) reported at the line of `name` in the exercise files.
#define KIT_EXPECT_EQ_AT_EXERCISE(name, a, b)                                                      \
  KIT_EXPECT_AT_EXERCISE(name, ::kit::testing::equal(#a, #b, a, b))
/// ASSERT_EQ(a, b) reported at the line of `name` in the exercise files.
#define KIT_ASSERT_EQ_AT_EXERCISE(name, a, b)                                                      \
  KIT_ASSERT_AT_EXERCISE(name, ::kit::testing::equal(#a, #b, a, b))
/// The line of `name` in this tree's exercise files (an optional kit::testing::SourcePlace).
#define KIT_EXERCISE_PLACE(name) ::kit::testing::exercise_place(KIT_EXERCISE_DIR, name)
/// The first line of this tree's exercise files that `message` names (an optional place).
#define KIT_EXERCISE_LINE_IN(message) ::kit::testing::exercise_line_in(KIT_EXERCISE_DIR, message)
