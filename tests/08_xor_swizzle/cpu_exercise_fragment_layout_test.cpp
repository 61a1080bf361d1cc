// Part 3 on the CPU: every ldmatrix.x4 of your fragment tile costs its ideal, in a tile that
// keeps every element in whole 16-byte chunks (a layout that loses data scores nothing,
// however cheap).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/ldmatrix.hpp"
#include "predictions.hpp"

namespace {

using lesson08::kChunkHalves;
using lesson08::kFragmentCols;
using lesson08::kFragmentRows;

// Your FragmentTile is the layout of the whole fragment tile, of halves (a compile error names
// the rule otherwise).
static_assert(lesson08::holds_the_fragment_tile<lesson08::FragmentTile>());

/// Why the fragments would lose data with your FragmentTile, or nothing: two elements at one
/// half or one outside the 16 x 64 halves, or a 16-byte chunk that is not whole and aligned
/// (ldmatrix reads, and the staging stores write, 8 consecutive halves from a 16-byte
/// aligned offset).
std::optional<std::string> fragment_loss() {
  constexpr lesson08::FragmentTile tile{};
  constexpr int kHalves = kFragmentRows * kFragmentCols;
  if (const auto clash = kit::first_collision(tile, kFragmentRows, kFragmentCols, kHalves)) {
    return "FragmentTile: " + kit::describe(*clash, kHalves, "the 16 x 64 halves") +
           ": the fragments would lose data (every element needs a half of its own)";
  }
  for (int r = 0; r < kFragmentRows; ++r) {
    for (int c0 = 0; c0 < kFragmentCols; c0 += kChunkHalves) {
      const std::string chunk = "FragmentTile: the chunk of row " + std::to_string(r) +
                                " at column " + std::to_string(c0);
      if (tile(r, c0) % kChunkHalves != 0) {
        return chunk + " starts at offset " + std::to_string(tile(r, c0)) +
               ": ldmatrix and the chunk stores need 16-byte aligned chunks";
      }
      for (int j = 1; j < kChunkHalves; ++j) {
        if (tile(r, c0 + j) != tile(r, c0) + j) {
          return chunk + ": element (" + std::to_string(r) + ", " + std::to_string(c0 + j) +
                 ") is not next to (" + std::to_string(r) + ", " + std::to_string(c0 + j - 1) +
                 "): ldmatrix would read it from elsewhere";
        }
      }
    }
  }
  return std::nullopt;
}

TEST(FragmentTile, EveryLdmatrixAtItsIdeal) {
  const auto loss = fragment_loss();
  ASSERT_FALSE(loss.has_value()) << *loss;
  // The starter's fragment reads are Part 1's ldmatrix patterns: their counts show once your
  // predictions are written.
  const bool shown = lesson08::testing::predictions_written();
  for (int step = 0; step < lesson08::kFragmentSteps; ++step) {
    const kit::LdsmPattern p =
        lesson08::ldsm_demo<lesson08::FragmentTile>("your fragment tile", 4, step);
    const kit::BankReport r = kit::analyze_ldsm(p.access);
    ASSERT_TRUE(r.ok()) << p.name << ": " << kit::to_string(r.error);
    EXPECT_TRUE(r.wavefronts == r.ideal)
        << p.name << " costs " << kit::count_text(shown, r.wavefronts, "wavefronts") << " (ideal "
        << kit::count_text(shown, r.ideal, "") << "): the 8 rows of matrix 0 start in banks "
        << r.lanes[0].bank << ", " << r.lanes[1].bank << ", " << r.lanes[2].bank
        << ", ... Which bits of the offset pick "
        << "the 16-byte chunk, and which the row?\n"
        << kit::drawing_text(shown, kit::print_layout(lesson08::FragmentTile{}, 8))
        << kit::counts_note(shown);
    if (r.wavefronts != r.ideal) {
      return;
    }
  }
}

} // namespace
