// The staging layout must lose no value: stage_slot is a permutation of the block (the
// starter's layout already is; keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(Layout, StageSlotIsAPermutationOfTheBlock) {
  std::vector<int> seen(lesson01::kBlockThreads, 0);
  for (int t = 0; t < lesson01::kBlockThreads; ++t) {
    const int slot = lesson01::stage_slot(t);
    ASSERT_GE(slot, 0) << "thread " << t;
    ASSERT_LT(slot, lesson01::kBlockThreads) << "thread " << t;
    ASSERT_EQ(seen[slot]++, 0) << "threads share slot " << slot << " (thread " << t << ")";
  }
}

} // namespace
