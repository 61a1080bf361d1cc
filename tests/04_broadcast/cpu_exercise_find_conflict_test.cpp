// Part 3 on the CPU: your finding about center_blocks as it was handed to you, held against
// the bank model; and your fixed layout, every access at 1 wavefront.
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "center_blocks_trace.hpp"
#include "kit/bank_model.hpp"

namespace {

constexpr int kFourBlocks = 4 * lesson04::kCenterBlockThreads;

/// The one access of the kernel as found that costs more than its ideal.
const kit::TraceEntry* conflicting(const kit::Trace& t) {
  for (const kit::TraceEntry& e : t.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    if (r.wavefronts > r.ideal) {
      return &e;
    }
  }
  return nullptr;
}

TEST(FindConflict, TheAccessThatConflicts) {
  const kit::Trace found = lesson04::testing::found_center_trace(kFourBlocks);
  const kit::TraceEntry* e = conflicting(found);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(std::string(lesson04::testing::label(lesson04::kFoundConflictAccess)), e->what)
      << "run the counters on center_blocks as found: the loads or the stores? Then list each "
         "access's lane offsets and give them to bank-map";
}

TEST(FindConflict, ItsWavefrontsPerRequest) {
  const kit::TraceEntry* e = conflicting(lesson04::testing::found_center_trace(kFourBlocks));
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(lesson04::kFoundConflictWavefronts, kit::analyze(e->access, e->op).wavefronts)
      << "how many different words does the busiest bank serve in that request?";
}

TEST(FindConflict, FixedEveryAccessCostsOneWavefront) {
  for (int n : {kFourBlocks, lesson04::kCenterBlockThreads * 3 + 77}) {
    const kit::Trace t = lesson04::testing::center_trace(n);
    const kit::SharedCounts model = t.expected(), ideal = t.ideal();
    EXPECT_TRUE(model.load_wavefronts == ideal.load_wavefronts &&
                model.store_wavefronts == ideal.store_wavefronts)
        << "n = " << n << ": some access of center_blocks still conflicts (loads "
        << model.load_wavefronts << " wavefronts, ideal " << ideal.load_wavefronts << "; stores "
        << model.store_wavefronts << ", ideal " << ideal.store_wavefronts << "):\n"
        << t.describe();
  }
}

} // namespace
