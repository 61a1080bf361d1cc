// Rules your tile must keep (the starter keeps them; keep them so): no padding, every element
// in its own float of the 32 x 32 floats; and a pair store that puts both floats of a pair
// where the layout says, with one aligned 8-byte store.
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows/shape.hpp"

namespace {

using lesson08::kTileDim;

static_assert(families::score_rows::holds_the_tile<lesson08::ScoreRows, lesson08::TileLayout>());

TEST(TileLayout, OneToOneWithoutPadding) {
  constexpr int kFloats = kTileDim * kTileDim;
  const auto clash = kit::first_collision(lesson08::TileLayout{}, kTileDim, kTileDim, kFloats);
  ASSERT_FALSE(clash) << kit::describe(*clash, kFloats,
                                       "the tile's 32 x 32 floats: no padding here");
}

TEST(PairStore, PutsBothFloatsWhereTheLayoutSays) {
  for (int r = 0; r < kTileDim; ++r) {
    for (int p = 0; p < lesson08::kPairsPerRow; ++p) {
      const lesson08::PairStore s = lesson08::pair_store(r, p);
      const int first = lesson08::TileLayout{}(r, lesson08::kPairFloats * p);
      const int second = lesson08::TileLayout{}(r, lesson08::kPairFloats * p + 1);
      ASSERT_EQ(s.offset % lesson08::kPairFloats, 0)
          << "pair " << p << " of row " << r << " is stored at offset " << s.offset
          << ": a float2 store needs an even offset (8 bytes), or the GPU stops the kernel with "
             "a misaligned address";
      ASSERT_EQ(first, s.offset + (s.swapped ? 1 : 0))
          << "row " << r << ", pair " << p << ": element (" << r << ", " << 2 * p
          << ") lives at offset " << first << " but the store puts it at "
          << s.offset + (s.swapped ? 1 : 0) << (s.swapped ? " (swapped)" : " (in order)");
      ASSERT_EQ(second, s.offset + (s.swapped ? 0 : 1))
          << "row " << r << ", pair " << p << ": element (" << r << ", " << 2 * p + 1
          << ") lives at offset " << second << " but the store puts it at "
          << s.offset + (s.swapped ? 0 : 1) << (s.swapped ? " (swapped)" : " (in order)");
    }
  }
}

TEST(PairStore, EveryRowPair) {
  for (int r0 = 0; r0 < kTileDim; r0 += 2) {
    kit::WarpAccess a;
    a.width = lesson08::kPairFloats * static_cast<int>(sizeof(float));
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      const lesson08::PairStore s =
          lesson08::pair_store(r0 + lane / lesson08::kPairsPerRow, lane % lesson08::kPairsPerRow);
      a.address[lane] = static_cast<std::uint32_t>(s.offset) * sizeof(float);
    }
    const kit::BankReport rep = kit::analyze(a, kit::SharedOp::store);
    ASSERT_TRUE(rep.ok()) << "rows " << r0 << "-" << r0 + 1 << ": " << kit::to_string(rep.error);
    ASSERT_EQ(rep.wavefronts, rep.ideal)
        << "the pair stores of rows " << r0 << "-" << r0 + 1 << " cost " << rep.wavefronts
        << " wavefronts, the ideal is " << rep.ideal;
  }
}

} // namespace
