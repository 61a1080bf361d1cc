// Part 2: conflict_degree(stride) against the bank model, for every stride from 0 to 128.
#include <gtest/gtest.h>

#include <sstream>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "predictions.hpp"

namespace {

constexpr unsigned kLargestStride = 128;
constexpr int kShownMisses = 4;

TEST(ConflictDegree, MatchesTheModelForEveryStride) {
  // Strides 2 and 6 are Part 1's: the model's count shows once your predictions are written.
  const bool shown = lesson02::testing::predictions_written();
  std::ostringstream misses;
  int missed = 0;
  for (unsigned s = 0; s <= kLargestStride; ++s) {
    const kit::BankReport r = kit::analyze(lesson02::stride_demo(s).access);
    ASSERT_TRUE(r.ok()) << "stride " << s;
    const int mine = lesson02::conflict_degree(s);
    // Which strides disagree says which conflict: listed once the predictions are written.
    if (mine != r.wavefronts && missed++ < kShownMisses && shown) {
      misses << "  stride " << s << ": conflict_degree says " << mine << ", the model "
             << kit::count_text(shown, r.wavefronts, "") << " (lane 1 is in bank "
             << r.lanes[1].bank << ", lane 16 in bank " << r.lanes[16].bank << "; "
             << kit::drawing_text(shown,
                                  "try `bank-map --type float --stride " + std::to_string(s) + "`")
             << ")\n";
    }
  }
  EXPECT_TRUE(missed == 0) << (shown ? std::to_string(missed) + " of the strides 0.." +
                                           std::to_string(kLargestStride) +
                                           " disagree with the model, among them:\n" + misses.str()
                                     : std::string("conflict_degree disagrees with the model on "
                                                   "some strides (which, and how many, shows once "
                                                   "you have written down your Part 1 predictions "
                                                   "in exercise.hpp)"));
}

} // namespace
