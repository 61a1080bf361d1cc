// The tile layout must lose no value: every staged number gets two floats of its own inside
// the tile (the starter's interleaved layout already does; keep it so), and an 8-byte access
// needs its pair together and 8-byte aligned.
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(Layout, EveryFloatOfTheTileHasOneOwner) {
  constexpr lesson02::TileLayout tile{};
  std::vector<int> owner(lesson02::kTileFloats, -1);
  for (int i = 0; i < lesson02::kTileElems; ++i) {
    for (int offset : {tile.re_offset(i), tile.im_offset(i)}) {
      ASSERT_GE(offset, 0) << "staged number " << i;
      ASSERT_LT(offset, lesson02::kTileFloats) << "staged number " << i << " is outside the tile";
      ASSERT_EQ(owner[offset], -1)
          << "staged numbers " << owner[offset] << " and " << i << " share float " << offset;
      owner[offset] = i;
    }
  }
}

TEST(Layout, AFloat2AccessReadsAnAlignedPair) {
  constexpr lesson02::TileLayout tile{};
  if (lesson02::TileLayout::kPairAccess != lesson02::PairAccess::one_float2) {
    GTEST_SUCCEED() << "two 4-byte accesses: any layout of the floats will do";
    return;
  }
  for (int i = 0; i < lesson02::kTileElems; ++i) {
    ASSERT_EQ(tile.im_offset(i), tile.re_offset(i) + 1)
        << "staged number " << i << ": one float2 reads re and the float right after it";
    ASSERT_EQ(tile.re_offset(i) % 2, 0)
        << "staged number " << i << ": an 8-byte access must start on an even float";
  }
}

} // namespace
