// Part 2 on the CPU: the bank model over every column read and every pair store of your tile,
// and over the whole of score_rows: every access at its ideal, fewer wavefronts than the best
// padding; each with a tile that keeps every element, and pair stores that put both floats
// where the tile says (a layout that loses data scores nothing, however cheap).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "predictions.hpp"
#include "score_rows_trace.hpp"

namespace {

using lesson08::kTileDim;

/// The first rows of your layout, bank by bank: what a failure shows.
std::string picture() {
  return kit::drawing_text(lesson08::testing::predictions_written(),
                           kit::print_layout(lesson08::TileLayout{}, 4)) +
         "Which bits of the offset must the row change so that 32 rows meet 32 banks?";
}

/// Why score_rows would lose data with your TileLayout, or nothing: two elements at one float,
/// or one outside the tile's 32 x 32 floats.
std::optional<std::string> tile_loss() {
  constexpr int kFloats = kTileDim * kTileDim;
  if (const auto clash =
          kit::first_collision(lesson08::TileLayout{}, kTileDim, kTileDim, kFloats)) {
    return "TileLayout: " + kit::describe(*clash, kFloats, "the tile's 32 x 32 floats") +
           ": score_rows would lose data (every tile element needs a float of its own)";
  }
  return std::nullopt;
}

/// Why the pair stores would lose data, or nothing: a float2 at an odd offset, or an element
/// that the store puts elsewhere than where TileLayout keeps it.
std::optional<std::string> pair_store_loss() {
  for (int r = 0; r < kTileDim; ++r) {
    for (int p = 0; p < lesson08::kPairsPerRow; ++p) {
      const lesson08::PairStore s = lesson08::pair_store(r, p);
      const std::string pair = "pair_store: row " + std::to_string(r) + ", pair " +
                               std::to_string(p) + " (elements (" + std::to_string(r) + ", " +
                               std::to_string(2 * p) + ") and (" + std::to_string(r) + ", " +
                               std::to_string(2 * p + 1) + "))";
      if (s.offset % lesson08::kPairFloats != 0) {
        return pair + " is stored at offset " + std::to_string(s.offset) +
               ": a float2 store needs an even offset (8 bytes)";
      }
      for (int k = 0; k < lesson08::kPairFloats; ++k) {
        const int lives = lesson08::TileLayout{}(r, lesson08::kPairFloats * p + k);
        const int put = s.offset + ((k == 1) != s.swapped ? 1 : 0);
        if (lives != put) {
          return pair + ": element (" + std::to_string(r) + ", " +
                 std::to_string(lesson08::kPairFloats * p + k) + ") lives at offset " +
                 std::to_string(lives) + " but the store puts it at " + std::to_string(put) +
                 (s.swapped ? " (swapped)" : " (in order)") +
                 ": score_rows would read values that were never stored there";
        }
      }
    }
  }
  return std::nullopt;
}

TEST(TileLayout, EveryColumnIsOneWavefront) {
  const auto loss = tile_loss();
  ASSERT_FALSE(loss.has_value()) << *loss;
  kit::Trace columns; // lane l reads row l of column c
  for (int c = 0; c < kTileDim; ++c) {
    const kit::WarpAccess a = kit::warp_access(lesson08::TileLayout{}, [&](int lane) {
      return kit::Coord{lane, c};
    });
    ASSERT_TRUE(kit::analyze(a).ok());
    columns.add(kit::SharedOp::load, a, 1, "read of column " + std::to_string(c));
  }
  ASSERT_TRUE(kit::at_ideal(columns)) << picture();
}

TEST(TileLayout, ScoreRowsAtItsIdeal) {
  for (const auto& loss : {tile_loss(), pair_store_loss()}) {
    ASSERT_FALSE(loss.has_value()) << *loss;
  }
  for (auto [rows, cols] : {std::pair{1000, 777}, std::pair{kTileDim, kTileDim}}) {
    const kit::Trace trace = lesson08::testing::Traces::exercise(rows, cols);
    // The cost of each access is Part 1's for the starter: listed once the predictions are
    // written.
    const bool shown = lesson08::testing::predictions_written();
    ASSERT_TRUE(kit::at_ideal(trace)) << rows << " x " << cols << ": score_rows\n"
                                      << (shown ? trace.compacted().describe() : std::string())
                                      << picture() << kit::counts_note(shown);
  }
}

TEST(TileLayout, FewerWavefrontsThanTheBestPadding) {
  for (const auto& loss : {tile_loss(), pair_store_loss()}) {
    ASSERT_FALSE(loss.has_value()) << *loss;
  }
  const double ratio = lesson08::testing::Traces::model_ratio(kTileDim, kTileDim);
  const bool shown = lesson08::testing::predictions_written();
  const int twin_column =
      kit::wavefronts(kit::warp_access(lesson08::testing::TwinTileLayout{}, [](int lane) {
        return kit::Coord{lane, 0};
      }));
  // EXPECT_TRUE: EXPECT_LT would print the ratio the message holds back.
  EXPECT_TRUE(ratio < 1.0) << "the model says score_rows spends "
                           << kit::count_text(shown, ratio, "x")
                           << " the wavefronts of its twin (rows 34 floats apart, whose column "
                              "reads cost "
                           << kit::count_text(shown, twin_column, "")
                           << "): a swizzle should beat every padding here"
                           << kit::counts_note(shown);
}

} // namespace
