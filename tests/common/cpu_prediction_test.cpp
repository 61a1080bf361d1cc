// Predictions held against the model: a wrong one fails with the student's value and the
// question, never the model's value; a right one prints the model's value on one line.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

#include "kit/prediction.hpp"

namespace {

/// A model value that cannot appear in a message by chance.
constexpr int kModel = 1234567;
constexpr const char* kQuestion = "lane l reads word 3 l: is any bank repeated?";

/// A student's constant, as a lesson's exercise.hpp declares it.
namespace student {
inline constexpr int kPredictedThing = 42;
} // namespace student

/// A prediction that is a choice.
enum class Access { none, load, store };

std::string prediction_text(Access a) {
  switch (a) {
  case Access::load:
    return "Access::load";
  case Access::store:
    return "Access::store";
  case Access::none:
    break;
  }
  return "Access::none";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Prediction, WrongIntegerGivesTheValueAndTheQuestionNotTheModel) {
  const ::testing::AssertionResult r =
      kit::check_prediction("kPredictedThing", 42, kModel, kQuestion);
  ASSERT_FALSE(r);
  const std::string m = r.message();
  EXPECT_TRUE(contains(m, "kPredictedThing is 42")) << m;
  EXPECT_TRUE(contains(m, kQuestion)) << m;
  EXPECT_FALSE(contains(m, "1234567")) << m;
}

TEST(Prediction, WrongDoubleGivesTheValueAndTheQuestionNotTheModel) {
  const ::testing::AssertionResult r =
      kit::check_prediction("kPredictedSlowdown", 2.5, kModel + 0.25, kQuestion);
  ASSERT_FALSE(r);
  const std::string m = r.message();
  EXPECT_TRUE(contains(m, "kPredictedSlowdown is 2.5")) << m;
  EXPECT_TRUE(contains(m, kQuestion)) << m;
  EXPECT_FALSE(contains(m, "1234567")) << m;
}

TEST(Prediction, WrongChoiceGivesTheChoiceNotTheModels) {
  const ::testing::AssertionResult r =
      kit::check_prediction("kFoundAccess", Access::none, Access::store, kQuestion);
  ASSERT_FALSE(r);
  const std::string m = r.message();
  EXPECT_TRUE(contains(m, "kFoundAccess is Access::none")) << m;
  EXPECT_TRUE(contains(m, kQuestion)) << m;
  EXPECT_FALSE(contains(m, "store")) << m;
}

TEST(Prediction, RightPrintsTheModelsValue) {
  ::testing::internal::CaptureStdout();
  const ::testing::AssertionResult r =
      kit::check_prediction("kPredictedThing", kModel, kModel, kQuestion);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(r);
  EXPECT_EQ(out, "[kit-prediction] kPredictedThing: your 1234567 = the model's 1234567\n");
}

TEST(Prediction, DoublesCompareAsExpectDoubleEq) {
  ::testing::internal::CaptureStdout();
  EXPECT_TRUE(kit::check_prediction("kPredictedRatio", 0.1 + 0.2, 0.3, kQuestion));
  EXPECT_FALSE(kit::check_prediction("kPredictedRatio", 1.0, 1.0 + 1e-9, kQuestion));
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_TRUE(contains(out, "your 0.30000000000000004 = the model's 0.3")) << out;
}

TEST(Prediction, TheMacroNamesTheConstantAndFailsOnce) {
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    KIT_EXPECT_PREDICTION(student::kPredictedThing, kModel, kQuestion);
  }
  ASSERT_EQ(failures.size(), 1);
  const ::testing::TestPartResult& f = failures.GetTestPartResult(0);
  EXPECT_TRUE(f.nonfatally_failed());
  const std::string m = f.message();
  EXPECT_TRUE(contains(m, "Your kPredictedThing is 42")) << m;
  EXPECT_TRUE(contains(m, kQuestion)) << m;
  EXPECT_FALSE(contains(m, "1234567")) << m;
}

TEST(PredictionsWritten, OnlyWhenNoneIsStillZero) {
  EXPECT_TRUE(kit::predictions_written(1, 32, 1.5));
  EXPECT_FALSE(kit::predictions_written(1, 0, 1.5));
  EXPECT_FALSE(kit::predictions_written(1, 32, 0.0));
  static_assert(kit::predictions_written(2), "usable where a constant is needed");
}

TEST(CountText, TheNumberOnceThePredictionsAreWrittenAQuestionMarkBefore) {
  EXPECT_EQ(kit::count_text(true, 32, "wavefronts"), "32 wavefronts");
  EXPECT_EQ(kit::count_text(true, 1, "wavefronts"), "1 wavefront");
  EXPECT_EQ(kit::count_text(false, 32, "wavefronts"), "? wavefronts");
  EXPECT_EQ(kit::count_text(false, 1.5, "x"), "?x");
  EXPECT_EQ(kit::count_text(true, 1.5, "x"), "1.5x");
  EXPECT_EQ(kit::count_text(false, 2, ""), "?");
  EXPECT_EQ(kit::counts_note(true), "");
  EXPECT_EQ(kit::counts_note(false).rfind("\n(\"?\": the count shows once", 0), 0u);
}

} // namespace
