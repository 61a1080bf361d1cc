// Part 2 on the CPU: every Horner step and every staging store of eval_polys costs 1
// wavefront in the bank model: as cheap as the conflict-free twin; each with a table that
// keeps every coefficient (a layout that loses data scores nothing, however cheap).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <exercise.hpp>

#include "eval_polys_trace.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "predictions.hpp"

namespace {

/// Success when CoefLayout keeps every coefficient of the block in a float of its own inside
/// the table's kTableCapacity floats; else the coefficient that collides or lies outside.
::testing::AssertionResult keeps_every_coefficient() {
  const auto clash = kit::first_collision(lesson04::CoefLayout{}, lesson04::kPolysPerBlock,
                                          lesson04::kCoefs, lesson04::kTableCapacity);
  if (!clash) {
    return ::testing::AssertionSuccess();
  }
  const bool outside = clash->offset < 0 || clash->offset >= lesson04::kTableCapacity;
  return ::testing::AssertionFailure()
         << "CoefLayout: polynomial " << clash->b.row << ", coefficient " << clash->b.col
         << " at offset " << clash->offset
         << (outside ? " lies outside the table's " + std::to_string(lesson04::kTableCapacity) +
                           " floats"
                     : " shares its float with polynomial " + std::to_string(clash->a.row) +
                           ", coefficient " + std::to_string(clash->a.col))
         << ": eval_polys would lose data (every coefficient needs a float of its own)";
}

TEST(TableLayout, EveryInstructionCostsOneWavefront) {
  ASSERT_TRUE(keeps_every_coefficient());
  // The starter's Horner step is a pattern of Part 1: its count shows once your predictions are
  // written.
  const bool shown = lesson04::testing::predictions_written();
  const kit::Trace trace =
      lesson04::testing::exercise_trace(lesson04::kPolysPerBlock, lesson04::kPointsPerBlock);
  for (const kit::TraceEntry& e : trace.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    ASSERT_TRUE(r.ok()) << e.what;
    const int w0 = static_cast<int>(r.lanes[0].word), w16 = static_cast<int>(r.lanes[16].word);
    // A Horner step: lanes 0-15 at offset w0, lanes 16-31 at w16.
    const std::string draw =
        e.op == kit::SharedOp::load
            ? " " + kit::drawing_text(shown, "Draw it: `bank-map --type float --index '" +
                                                 std::to_string(w0) + " + (l/16)*" +
                                                 std::to_string(w16 - w0) + "'`.")
            : "";
    EXPECT_TRUE(r.wavefronts == r.ideal)
        << e.what << " costs " << kit::count_text(shown, r.wavefronts, "wavefronts")
        << ", its ideal " << r.ideal << ": lane 0 reads word " << w0 << " (bank " << r.lanes[0].bank
        << "), lane 16 word " << w16 << " (bank " << r.lanes[16].bank
        << "). A broadcast shares a word, not a bank." << draw << kit::counts_note(shown);
    if (r.wavefronts != r.ideal) {
      break; // one message is enough
    }
  }
}

TEST(TableLayout, AsCheapAsTheTwin) {
  ASSERT_TRUE(keeps_every_coefficient());
  const bool shown = lesson04::testing::predictions_written();
  for (auto [polys, points] : {std::pair{1000, 777}, std::pair{16, 16}}) {
    const double ratio = lesson04::testing::model_ratio(polys, points);
    EXPECT_TRUE(kit::prediction_equals(ratio, 1.0))
        << polys << " x " << points << ": the model says eval_polys spends "
        << kit::count_text(shown, ratio, "x") << " the wavefronts of its twin"
        << kit::counts_note(shown);
  }
}

} // namespace
