// Your column assignments must compute the whole tile: every one of its 128 columns owned by
// exactly one (thread column, element); and Part 3's float4 loads must each read four
// fragment elements (the starter's blocked assignments do both; keep it so).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

namespace {

using namespace lesson09;

template <class Columns>
void expect_every_column_owned_once(const std::string& name) {
  std::vector<int> owners(kTileN, 0);
  for (int t = 0; t < kThreadsX; ++t) {
    for (int j = 0; j < kFragN; ++j) {
      const int col = Columns::col(t, j);
      ASSERT_TRUE(col >= 0 && col < kTileN) << name << "::col(" << t << ", " << j << ") = " << col
                                            << " lies outside the tile's " << kTileN << " columns";
      ASSERT_EQ(owners[col]++, 0) << name << ": column " << col << " is owned twice (again by col("
                                  << t << ", " << j << "))";
    }
  }
  EXPECT_TRUE(owns_every_column<Columns>());
}

TEST(FragmentColumns, EveryColumnOwnedOnce) {
  expect_every_column_owned_once<FragmentColumns>("FragmentColumns");
}

TEST(Float4Columns, EveryColumnOwnedOnce) {
  expect_every_column_owned_once<Float4Columns>("Float4Columns");
}

TEST(Float4Columns, Float4ReadsTheFragment) {
  for (int t = 0; t < kThreadsX; ++t) {
    for (int q = 0; q < kFragN / 4; ++q) {
      const int first = Float4Columns::col(t, 4 * q);
      ASSERT_EQ(first % 4, 0) << "col(" << t << ", " << 4 * q << ") = " << first
                              << ": a float4 load must start at a multiple of 4 floats";
      for (int r = 1; r < 4; ++r) {
        ASSERT_EQ(Float4Columns::col(t, 4 * q + r), first + r)
            << "the float4 load at column " << first << " reads columns " << first << " ... "
            << first + 3 << ": element " << 4 * q + r << " of thread column " << t
            << " must be column " << first + r;
      }
    }
  }
  EXPECT_TRUE(float4_fragments<Float4Columns>());
}

} // namespace
