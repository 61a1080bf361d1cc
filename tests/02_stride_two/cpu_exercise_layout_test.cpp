// Part 3 on the CPU: the bank model finds every shared-memory instruction of correlate
// at its width's ideal, and the kernel as cheap as its conflict-free twin.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "correlate_trace.hpp"
#include "kit/bank_model.hpp"

namespace {

TEST(Layout, EveryInstructionCostsItsIdeal) {
  for (int n : {lesson02::kBlockThreads * 4, 1000, 1}) {
    const kit::Trace trace = lesson02::testing::exercise_trace(n);
    for (const kit::TraceEntry& e : trace.entries()) {
      const kit::BankReport r = kit::analyze(e.access, e.op);
      ASSERT_TRUE(r.ok()) << e.what << ": " << kit::to_string(r.error);
      EXPECT_EQ(r.wavefronts, r.ideal)
          << e.what << " (" << e.access.width << "-byte, n = " << n << ") costs " << r.wavefronts
          << " wavefronts: lane 0 uses bank " << r.lanes[0].bank << ", lane 1 bank "
          << r.lanes[1].bank << ", lane 16 bank " << r.lanes[16].bank
          << ". Try `bank-map --type float --stride 2` to see the starter's reads.";
      if (r.wavefronts != r.ideal) {
        break; // one message per trace is enough
      }
    }
  }
}

TEST(Layout, AsCheapAsTheConflictFreeTwin) {
  const int n = lesson02::kBlockThreads * 100;
  const kit::SharedCounts mine = lesson02::testing::exercise_trace(n).expected();
  EXPECT_DOUBLE_EQ(lesson02::testing::model_ratio(n), 1.0)
      << "the model says correlate spends " << lesson02::testing::model_ratio(n)
      << "x the wavefronts of its twin (loads: " << mine.load_wavefronts_per_request()
      << " wavefronts per request, stores: " << mine.store_wavefronts_per_request() << ")";
}

} // namespace
