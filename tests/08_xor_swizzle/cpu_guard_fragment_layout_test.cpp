// Rules your fragment tile must keep: no padding, and whole 16-byte chunks (ldmatrix reads 8
// consecutive halves from 16-byte aligned rows; the staging stores write them as one float4).
// The starter keeps them; keep them so.
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace {

using lesson08::kChunkHalves;
using lesson08::kFragmentCols;
using lesson08::kFragmentRows;

static_assert(lesson08::holds_the_fragment_tile<lesson08::FragmentTile>());

TEST(FragmentTile, OneToOneWithoutPadding) {
  const auto clash = kit::first_collision(lesson08::FragmentTile{}, kFragmentRows, kFragmentCols,
                                          kFragmentRows * kFragmentCols);
  ASSERT_FALSE(clash) << kit::describe(*clash, kFragmentRows * kFragmentCols,
                                       "the 16 x 64 halves: no padding here");
}

TEST(FragmentTile, ChunksStayWholeAndAligned) {
  constexpr lesson08::FragmentTile tile{};
  for (int r = 0; r < kFragmentRows; ++r) {
    for (int c0 = 0; c0 < kFragmentCols; c0 += kChunkHalves) {
      ASSERT_EQ(tile(r, c0) % kChunkHalves, 0)
          << "the chunk of row " << r << " at column " << c0 << " starts at offset " << tile(r, c0)
          << ": ldmatrix and the float4 store need 16-byte aligned chunks";
      for (int j = 1; j < kChunkHalves; ++j) {
        ASSERT_EQ(tile(r, c0 + j), tile(r, c0) + j)
            << "element (" << r << ", " << c0 + j << ") is not next to (" << r << ", " << c0 + j - 1
            << "): a swizzle of ldmatrix rows moves whole 16-byte chunks";
      }
    }
  }
}

TEST(FragmentTile, ChunkStoresOfTheTile) {
  for (int i = 0; i < lesson08::kChunkStores; ++i) {
    const kit::BankReport r =
        kit::analyze(kit::warp_access(
                         lesson08::FragmentTile{},
                         [&](int lane) { return lesson08::chunk_coord(i, lane); }, kChunkHalves),
                     kit::SharedOp::store);
    ASSERT_TRUE(r.ok()) << "store " << i << ": " << kit::to_string(r.error);
    EXPECT_EQ(r.wavefronts, r.ideal) << "store " << i << " costs " << r.wavefronts;
  }
}

} // namespace
