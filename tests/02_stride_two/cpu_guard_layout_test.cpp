// The tile layout must lose no value: every staged number gets two floats of its own inside
// the tile (the starter's interleaved layout already does; keep it so), and an 8-byte access
// needs its pair together and 8-byte aligned.
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(Layout, EveryFloatOfTheTileHasOneOwner) {
  std::vector<int> owner(lesson02::kTileFloats, -1);
  for (int i = 0; i < lesson02::kTileElems; ++i) {
    for (int slot : {lesson02::re_slot(i), lesson02::im_slot(i)}) {
      ASSERT_GE(slot, 0) << "staged number " << i;
      ASSERT_LT(slot, lesson02::kTileFloats) << "staged number " << i << " is outside the tile";
      ASSERT_EQ(owner[slot], -1) << "staged numbers " << owner[slot] << " and " << i
                                 << " share float " << slot;
      owner[slot] = i;
    }
  }
}

TEST(Layout, AFloat2AccessReadsAnAlignedPair) {
  if (lesson02::kPairAccess != lesson02::PairAccess::one_float2) {
    GTEST_SUCCEED() << "two 4-byte accesses: any layout of the floats will do";
    return;
  }
  for (int i = 0; i < lesson02::kTileElems; ++i) {
    ASSERT_EQ(lesson02::im_slot(i), lesson02::re_slot(i) + 1)
        << "staged number " << i << ": one float2 reads re and the float right after it";
    ASSERT_EQ(lesson02::re_slot(i) % 2, 0)
        << "staged number " << i << ": an 8-byte access must start on an even float";
  }
}

} // namespace
