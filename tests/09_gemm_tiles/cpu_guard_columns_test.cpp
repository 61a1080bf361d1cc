// Your column assignment must compute the whole tile: every one of its 128 columns owned by
// exactly one (thread column, element), and each float4 load reading four fragment elements
// (the starter's blocked assignment does both; keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

namespace {

using namespace lesson09;

TEST(FragmentColumns, EveryColumnOwnedOnce) {
  std::vector<int> owners(kTileN, 0);
  for (int t = 0; t < kThreadsX; ++t) {
    for (int j = 0; j < kFragN; ++j) {
      const int col = FragmentColumns::col(t, j);
      ASSERT_TRUE(col >= 0 && col < kTileN) << "col(" << t << ", " << j << ") = " << col
                                            << " lies outside the tile's " << kTileN << " columns";
      ASSERT_EQ(owners[col]++, 0) << "column " << col << " is owned twice (again by col(" << t
                                  << ", " << j << "))";
    }
  }
  EXPECT_TRUE(owns_every_column<FragmentColumns>());
}

TEST(FragmentColumns, Float4ReadsTheFragment) {
  for (int t = 0; t < kThreadsX; ++t) {
    for (int q = 0; q < kFragN / 4; ++q) {
      const int first = FragmentColumns::col(t, 4 * q);
      ASSERT_EQ(first % 4, 0) << "col(" << t << ", " << 4 * q << ") = " << first
                              << ": a float4 load must start at a multiple of 4 floats";
      for (int r = 1; r < 4; ++r) {
        ASSERT_EQ(FragmentColumns::col(t, 4 * q + r), first + r)
            << "the float4 load at column " << first << " reads columns " << first << " ... "
            << first + 3 << ": element " << 4 * q + r << " of thread column " << t
            << " must be column " << first + r;
      }
    }
  }
  EXPECT_TRUE(float4_fragments<FragmentColumns>());
}

} // namespace
