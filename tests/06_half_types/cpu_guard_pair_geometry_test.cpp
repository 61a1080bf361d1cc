// The given geometry stays sound whatever padding you pick, and the trap is caught before
// any kernel runs: every pair access is 4-byte aligned (an odd kHalfPitch puts the pairs of
// every odd tile row at odd offsets, and a misaligned shared access is a fault), the 2 x 2
// blocks and the output pairs cover the tile once, the pair path transposes a tile, and only
// even shapes move in pairs.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/matrix.hpp"

namespace {

using lesson06::kBlockRows;
using lesson06::kTileDim;

TEST(PairGeometry, EveryPairAccessIsAligned) {
  const auto misaligned = lesson06::testing::pair_misalignment();
  EXPECT_FALSE(misaligned.has_value()) << *misaligned;
}

TEST(PairGeometry, BlocksAndOutputPairsCoverTheTileOnce) {
  constexpr int kPairsPerSide = kTileDim / 2;
  std::vector<int> blocks(kPairsPerSide * kPairsPerSide, 0);
  std::vector<int> out_pairs(kTileDim * kPairsPerSide, 0);
  for (int w = 0; w < kBlockRows; ++w) {
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      const int i = lesson06::block_row_pair(w, lane), j = lesson06::block_col_pair(lane);
      ASSERT_TRUE(i >= 0 && i < kPairsPerSide && j >= 0 && j < kPairsPerSide);
      ++blocks[i * kPairsPerSide + j];
      for (int k = 0; k < lesson06::kPairSteps; ++k) {
        const int c = lesson06::out_row(w, k, lane), p = lesson06::out_pair(lane);
        ASSERT_TRUE(c >= 0 && c < kTileDim && p >= 0 && p < kPairsPerSide);
        ++out_pairs[c * kPairsPerSide + p];
      }
    }
  }
  for (int n : blocks) {
    ASSERT_EQ(n, 1) << "a 2 x 2 block is moved by more or fewer than one thread";
  }
  for (int n : out_pairs) {
    ASSERT_EQ(n, 1) << "an output pair is written by more or fewer than one thread";
  }
}

TEST(PairGeometry, PairPathTransposesATile) {
  // Every element a different bit pattern: a value moved to the wrong place cannot pass.
  std::vector<std::uint16_t> in(kTileDim * kTileDim);
  for (std::size_t e = 0; e < in.size(); ++e) {
    in[e] = static_cast<std::uint16_t>(0x8000u | e);
  }
  const std::vector<std::uint16_t> out = lesson06::testing::emulate_pair_tile(in);
  for (int r = 0; r < kTileDim; ++r) {
    for (int c = 0; c < kTileDim; ++c) {
      ASSERT_EQ(out[kit::matrix_index(c, r, kTileDim)], in[kit::matrix_index(r, c, kTileDim)])
          << "input (" << r << ", " << c << ")";
    }
  }
}

TEST(PairGeometry, PairsFitNeedsEvenRowsAndColumns) {
  EXPECT_TRUE(lesson06::pairs_fit(64, 96));
  EXPECT_FALSE(lesson06::pairs_fit(31, 32)) << "output rows would start on odd halves";
  EXPECT_FALSE(lesson06::pairs_fit(32, 31)) << "input rows would start on odd halves";
}

} // namespace
