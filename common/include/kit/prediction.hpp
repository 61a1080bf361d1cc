/// @file prediction.hpp
/// @brief A student's prediction held against the bank model, with a message that guides
/// without giving the model's value away.
///
/// A wrong prediction fails with the student's value and the question the test asks; the
/// model's value appears only once the prediction matches it, as one machine-readable line:
///
///     [kit-prediction] kPredictedSomeWavefronts: your 3 = the model's 3
///
/// A wrong prediction is reported at the constant's line in the lesson's exercise.hpp (where
/// the student changes it), not at the test's (kit/testing_exercise.hpp).
///
/// Until the student has written down their predictions (kit::predictions_written), a failure
/// of an exercise test says what is wrong and where, and a count a prediction asks for reads "?"
/// (kit::count_text).
///
/// Host code only (GoogleTest, no CUDA): the lessons' CPU test programs use it.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "kit/testing_exercise.hpp"

namespace kit {

/// How a prediction of a number is written in a message: an integer as it is, a double in
/// the fewest digits that read back as the same double (2, 0.5, 0.3333333333333333).
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
std::string prediction_text(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[40];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(value));
      if (static_cast<T>(std::stod(buf)) == value) {
        break;
      }
    }
    return buf;
  } else {
    return std::to_string(value);
  }
}

/// A prediction that is a word (a choice spelled as in exercise.hpp). A lesson whose
/// prediction is an enum gives a `prediction_text(TheEnum)` of its own in the enum's namespace.
inline std::string prediction_text(std::string_view value) {
  return std::string(value);
}

/// True when the prediction equals the model's value: exactly for integers and words, within
/// 4 ULPs for floating point (GoogleTest's EXPECT_DOUBLE_EQ).
template <class T>
bool prediction_equals(const T& predicted, const T& model) {
  if constexpr (std::is_floating_point_v<T>) {
    using Fp = ::testing::internal::FloatingPoint<T>;
    return Fp(predicted).AlmostEquals(Fp(model));
  } else {
    return predicted == model;
  }
}

/// Holds the prediction `name` = `predicted` against the model's value.
///
/// Right: succeeds and prints `[kit-prediction] <name>: your <p> = the model's <m>`.
/// Wrong: fails with a message that gives `name`, the student's value and `question` (what
/// to reason about), and never the model's value.
/// @param name      the constant the student writes in exercise.hpp, e.g. kPredictedWavefronts
/// @param predicted the student's value
/// @param model     the bank model's value, of the same type
/// @param question  the question that leads to the answer
template <class T>
::testing::AssertionResult check_prediction(std::string_view name, const T& predicted,
                                            const T& model, std::string_view question) {
  const std::string yours = prediction_text(predicted); // an enum's own by argument lookup
  if (prediction_equals(predicted, model)) {
    const std::string theirs = prediction_text(model);
    std::printf("[kit-prediction] %.*s: your %s = the model's %s\n", static_cast<int>(name.size()),
                name.data(), yours.c_str(), theirs.c_str());
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "Your " << name << " is " << yours << ", and the bank model disagrees.\n"
         << "  " << question << "\n"
         << "  Work it out, then change " << name
         << " in exercise.hpp (the model's value is printed once yours matches it).";
}

/// Whether the student has written down every prediction given (none is still the starter's 0:
/// a count or a ratio is never 0). A lesson's tests/NN_topic/predictions.hpp lists its Part 1;
/// its exercise tests give a count a prediction asks for only once this holds (count_text).
template <class... T>
constexpr bool predictions_written(const T&... predicted) {
  return ((predicted != T{}) && ...);
}

/// A count as a message gives it ("2 wavefronts", "1 wavefront", "1.5x", "2" without a unit):
/// the number where `shown` (predictions_written of the lesson's Part 1), "?" until then.
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
std::string count_text(bool shown, T value, std::string_view unit) {
  std::string text = shown ? prediction_text(value) : std::string("?");
  if (unit.empty()) {
    return text;
  }
  if (unit == "x") {
    return text + "x";
  }
  std::string_view u = unit;
  if (shown && value == T(1) && u.size() > 1 && u.back() == 's') {
    u.remove_suffix(1);
  }
  return text + " " + std::string(u);
}

/// A drawing a message offers of the student's layout or reads (a bank-by-bank picture, a
/// `bank-map` command): the drawing where `shown` (predictions_written of the lesson's Part 1),
/// until then a line saying when it shows. With the starter's layout a drawing is often a
/// pattern Part 1 asks about, and its banks give the prediction away.
inline std::string drawing_text(bool shown, const std::string& drawing) {
  if (shown) {
    return drawing;
  }
  std::string note = "(a drawing of it shows once you have written down your Part 1 "
                     "predictions in exercise.hpp)";
  if (!drawing.empty() && drawing.back() == '\n') {
    note += '\n'; // a picture's lines end in one; what follows it starts a line
  }
  return note;
}

namespace detail {
inline bool& counts_shown_flag() {
  static bool shown = true;
  return shown;
}
} // namespace detail

/// Whether the tests' measurement lines (`[kit-counters]`, `[kit-slowdown]`) give their counts
/// and ratios. In a lesson's GPU test programs it holds whether the lesson's Part 1 is written
/// down (predictions_written): before that, a demo's measured cost would answer a prediction.
/// The build sets it when the program starts, from tests/NN_topic/predictions.hpp
/// (cmake/CourseLesson.cmake); any other program shows them.
inline bool counts_shown() {
  return detail::counts_shown_flag();
}
/// Sets counts_shown(); returns `shown` (for a static initializer).
inline bool show_counts(bool shown) {
  detail::counts_shown_flag() = shown;
  return shown;
}

/// What a message adds, on a line of its own, where it holds a count back (count_text with
/// `shown` false); nothing where it shows them.
inline std::string counts_note(bool shown) {
  return shown ? std::string()
               : std::string("\n(\"?\": the count shows once you have written down "
                             "your Part 1 predictions in exercise.hpp)");
}

namespace detail {

/// The constant a prediction names: the predicted expression's last part
/// (lesson01::kPredictedX -> kPredictedX).
inline std::string_view prediction_name(const char* predicted_expr) {
  std::string_view name(predicted_expr);
  if (const auto colons = name.rfind("::"); colons != std::string_view::npos) {
    name.remove_prefix(colons + 2);
  }
  return name;
}

/// KIT_EXPECT_PREDICTION's check: check_prediction under the constant's name.
template <class T>
::testing::AssertionResult prediction_format(const char* predicted_expr, const char*, const char*,
                                             const T& predicted, const T& model,
                                             const char* question) {
  return check_prediction(prediction_name(predicted_expr), predicted, model, question);
}

} // namespace detail
} // namespace kit

/// Expects the student's constant `predicted` (e.g. lesson01::kPredictedStrideOneWavefronts)
/// to equal the model's value `model` (same type: exactly for integers, as EXPECT_DOUBLE_EQ
/// for doubles); a wrong one fails with its value and `question`, at the constant's line in
/// the exercise files (the test's line where it is not found), and a right one prints the
/// model's value (kit::check_prediction).
#define KIT_EXPECT_PREDICTION(predicted, model, question)                                          \
  KIT_EXPECT_AT_EXERCISE(                                                                          \
      ::kit::detail::prediction_name(#predicted),                                                  \
      ::kit::detail::prediction_format(#predicted, #model, #question, predicted, model, question))
