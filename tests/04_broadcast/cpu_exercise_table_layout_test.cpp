// Part 2 on the CPU: every Horner step and every staging store of eval_polys costs 1
// wavefront in the bank model: as cheap as the conflict-free twin.
#include <gtest/gtest.h>

#include <utility>

#include <exercise.hpp>

#include "eval_polys_trace.hpp"
#include "kit/bank_model.hpp"

namespace {

TEST(TableLayout, EveryInstructionCostsOneWavefront) {
  const kit::Trace trace =
      lesson04::testing::exercise_trace(lesson04::kPolysPerBlock, lesson04::kPointsPerBlock);
  for (const kit::TraceEntry& e : trace.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    ASSERT_TRUE(r.ok()) << e.what;
    EXPECT_EQ(r.wavefronts, r.ideal)
        << e.what << " costs " << r.wavefronts << " wavefronts: lane 0 reads word "
        << r.lanes[0].word << " (bank " << r.lanes[0].bank << "), lane 16 word " << r.lanes[16].word
        << " (bank " << r.lanes[16].bank << "). A broadcast shares a word, not a bank.";
    if (r.wavefronts != r.ideal) {
      break; // one message is enough
    }
  }
}

TEST(TableLayout, AsCheapAsTheTwin) {
  for (auto [polys, points] : {std::pair{1000, 777}, std::pair{16, 16}}) {
    EXPECT_DOUBLE_EQ(lesson04::testing::model_ratio(polys, points), 1.0)
        << polys << " x " << points << ": the model says eval_polys spends "
        << lesson04::testing::model_ratio(polys, points) << "x the wavefronts of its twin";
  }
}

} // namespace
