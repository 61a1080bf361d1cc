/// @file testing_matrix.hpp
/// @brief Matrices for tests of kernels that move bits (transposes, copies): shapes (the
/// awkward ones every such kernel must handle), the CPU transpose, and bit-for-bit comparisons
/// that name the first wrong element, its tile and, for a transpose, where its value came
/// from, and one report per kind of failure over a loop of shapes. Host code;
/// kit/testing_matrix_run.hpp runs a kernel on them (GPU tests).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kit/testing_exercise.hpp"

namespace kit::testing {

/// A matrix shape, row-major.
struct Shape {
  int rows; ///< Rows.
  int cols; ///< Columns.
  /// Elements.
  std::size_t size() const {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  }
  /// "rows x cols", for messages.
  std::string name() const { return std::to_string(rows) + " x " + std::to_string(cols); }
};

/// One element, one row, one column, one ragged 32 x 32 tile each way, a tile multiple, ragged
/// tiles on both edges (one of them a multiple of 4).
inline std::vector<Shape> awkward_shapes() {
  return {{1, 1}, {1, 4097}, {4097, 1}, {31, 33}, {33, 31}, {64, 96}, {1000, 777}, {1000, 776}};
}

/// A large square: the awkward shapes' companion outside the small (sanitizer) mode.
inline constexpr Shape kLargeShape{4096, 4096};

/// out[c][r] = in[r][c] for a row-major `s.rows x s.cols` input of bit patterns.
template <class Bits>
std::vector<Bits> cpu_transpose(const std::vector<Bits>& in, Shape s) {
  std::vector<Bits> out(in.size());
  for (std::size_t r = 0; r < static_cast<std::size_t>(s.rows); ++r) {
    for (std::size_t c = 0; c < static_cast<std::size_t>(s.cols); ++c) {
      out[c * static_cast<std::size_t>(s.rows) + r] = in[r * static_cast<std::size_t>(s.cols) + c];
    }
  }
  return out;
}

/// (how many elements of `want` `got` does not match, the index of the first).
template <class Bits>
std::pair<std::size_t, std::size_t> differences(const std::vector<Bits>& got,
                                                const std::vector<Bits>& want) {
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (i >= got.size() || got[i] != want[i]) {
      if (wrong++ == 0) {
        first = i;
      }
    }
  }
  return {wrong, first};
}

/// Bit-for-bit equality with the expected matrix (`out_cols` values per row). The message
/// names how many elements differ, the first one, its `tile` x `tile` tile, and whether it was
/// never written (all bits set: the poison tests fill outputs with first).
template <class Bits>
::testing::AssertionResult same_bits(const std::vector<Bits>& got, const std::vector<Bits>& want,
                                     int out_cols, int tile) {
  const auto [wrong, first] = differences(got, want);
  if (wrong == 0) {
    return ::testing::AssertionSuccess();
  }
  const std::size_t r = first / static_cast<std::size_t>(out_cols);
  const std::size_t c = first % static_cast<std::size_t>(out_cols);
  const Bits value = first < got.size() ? got[first] : Bits{};
  std::ostringstream hex;
  hex << std::hex << std::setfill('0') << "0x" << std::setw(2 * sizeof(Bits))
      << static_cast<std::uint64_t>(value) << ", expected 0x" << std::setw(2 * sizeof(Bits))
      << static_cast<std::uint64_t>(want[first]);
  return ::testing::AssertionFailure()
         << wrong << " of " << want.size() << " output elements differ; the first is (" << r << ", "
         << c << ") in output tile (" << r / tile << ", " << c / tile << "): " << hex.str()
         << (value == static_cast<Bits>(~Bits{}) ? " (never written: still the poison)" : "");
}

/// How a wrong output element got its value: (its index in the output, its bits) -> words, or ""
/// when that is not known.
/// (Not deduced from a call's argument: a lambda converts to it.)
template <class Bits>
using OriginOf = typename std::enable_if<true, std::function<std::string(std::size_t, Bits)>>::type;

/// Bit-for-bit equality with the transpose of `in` (a row-major `s.rows x s.cols` matrix of
/// random bit patterns, so that a value names the element it came from). The message names how
/// many elements differ and, for the first, the input element it holds and the one it should:
/// "out(1, 0) holds in(35, 0); expected in(0, 1)", or that it was never written (all bits set:
/// the poison) or holds a value no input element has. `origin`, when given, says how the first
/// wrong element got its value (its index in `got` and the value; "" when it cannot tell): a
/// CPU run of the kernel knows the thread and the line that moved it.
template <class Bits>
::testing::AssertionResult same_transpose(const std::vector<Bits>& got, const std::vector<Bits>& in,
                                          Shape s, int tile,
                                          const OriginOf<Bits>& origin = OriginOf<Bits>()) {
  const std::vector<Bits> want = cpu_transpose(in, s);
  const auto [wrong, first] = differences(got, want);
  if (wrong == 0) {
    return ::testing::AssertionSuccess();
  }
  // The output is s.cols x s.rows: out(r, c) should hold in(c, r).
  const std::size_t out_cols = static_cast<std::size_t>(s.rows);
  const std::size_t r = first / out_cols, c = first % out_cols;
  const Bits value = first < got.size() ? got[first] : Bits{};
  auto element = [](const char* m, std::size_t row, std::size_t col) {
    return std::string(m) + "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
  };
  std::string holds;
  if (value == static_cast<Bits>(~Bits{})) {
    holds = "was never written (it still holds the poison)";
  } else {
    std::size_t found = 0, at = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (in[i] == value && found++ == 0) {
        at = i;
      }
    }
    const std::size_t in_cols = static_cast<std::size_t>(s.cols);
    if (found == 0) {
      std::ostringstream hex;
      hex << std::hex << std::setfill('0') << "0x" << std::setw(2 * sizeof(Bits))
          << static_cast<std::uint64_t>(value);
      holds = "holds " + hex.str() + ", the value of no input element";
    } else {
      holds = "holds " + element("in", at / in_cols, at % in_cols) +
              (found > 1 ? " (or one of " + std::to_string(found - 1) +
                               " other input elements of the same value)"
                         : "");
    }
  }
  const std::string how = origin && first < got.size() ? origin(first, value) : std::string();
  return ::testing::AssertionFailure()
         << wrong << " of " << want.size() << " output elements differ; the first, "
         << element("out", r, c) << " in output tile (" << r / static_cast<std::size_t>(tile)
         << ", " << c / static_cast<std::size_t>(tile) << "), " << holds << "; expected "
         << element("in", c, r) << " (the " << s.name() << " input transposed is " << s.cols
         << " x " << s.rows << ")" << (how.empty() ? "" : ".\n" + how);
}

/// The failures of a loop over shapes, one message per kind: a wrong layout or index fails every
/// shape the same way, and one message (the first shape's) with the count of shapes that repeat
/// it says so without burying the next kind of failure. A kind may name its place in the
/// student's files (kit/testing_exercise.hpp): its failure is reported there, else at the test's
/// line.
class FailuresByKind {
public:
  /// Notes a failure of `kind` on `shape`; the first of a kind keeps its message and `place`.
  void add(const std::string& kind, const std::string& shape, const std::string& message,
           const std::optional<SourcePlace>& place = std::nullopt) {
    for (Kind& k : kinds_) {
      if (k.kind == kind) {
        k.more.push_back(shape);
        return;
      }
    }
    kinds_.push_back({kind, shape, message, place, {}});
  }
  /// Notes `result` as a failure of `kind` on `shape` when it is one.
  void add(const std::string& kind, const std::string& shape,
           const ::testing::AssertionResult& result,
           const std::optional<SourcePlace>& place = std::nullopt) {
    if (!result) {
      add(kind, shape, result.message(), place);
    }
  }
  /// True when no failure was noted.
  bool empty() const { return kinds_.empty(); }
  /// Each kind's message as one failure of the running test, at its place or its TEST line, in
  /// the order first seen.
  void report() const {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    report(test ? test->file() : __FILE__, test ? test->line() : __LINE__);
  }
  /// The same, at `file`:`line` where a kind names no place.
  void report(const char* file, int line) const {
    for (const Kind& k : kinds_) {
      std::string text = "on the " + k.first + " matrix: " + k.message;
      if (!k.more.empty()) {
        text += "\n(the same on " + std::to_string(k.more.size()) + " more shape" +
                (k.more.size() > 1 ? "s" : "") + ":";
        for (std::size_t i = 0; i < k.more.size(); ++i) {
          text += (i ? ", " : " ") + k.more[i];
        }
        text += ")";
      }
      FailureAt(::testing::TestPartResult::kNonFatalFailure, place_or(k.place, file, line), text) =
          ::testing::Message();
    }
  }

private:
  struct Kind {
    std::string kind;
    std::string first;                // the shape that showed it first
    std::string message;              // its message there
    std::optional<SourcePlace> place; // where in the student's files, if known
    std::vector<std::string> more;    // the shapes that repeat it
  };
  std::vector<Kind> kinds_;
};

} // namespace kit::testing
