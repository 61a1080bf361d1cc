// The staging layout must lose no value: stage_offset is a permutation of the block (the
// starter's layout already is; keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(Layout, StageSlotIsAPermutationOfTheBlock) {
  std::vector<int> seen(lesson01::kBlockThreads, 0);
  for (int t = 0; t < lesson01::kBlockThreads; ++t) {
    const int offset = lesson01::stage_offset(t);
    ASSERT_GE(offset, 0) << "thread " << t;
    ASSERT_LT(offset, lesson01::kBlockThreads) << "thread " << t;
    ASSERT_EQ(seen[offset]++, 0) << "threads share offset " << offset << " (thread " << t << ")";
  }
}

} // namespace
