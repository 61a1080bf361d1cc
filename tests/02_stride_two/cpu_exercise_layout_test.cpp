// Part 3 on the CPU: the bank model finds every shared-memory instruction of correlate
// at its width's ideal, and the kernel as cheap as its conflict-free twin, with a tile that
// keeps every staged number (a layout that loses data scores nothing, however cheap).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <exercise.hpp>

#include "correlate_trace.hpp"
#include "kit/bank_model.hpp"
#include "predictions.hpp"

namespace {

/// Why correlate would lose or mix up data with your TileLayout, or nothing: a part of a staged
/// number outside the tile's kTileFloats floats, two parts at one float, or (one_float2) a
/// pair whose Im is not the float after its Re.
std::optional<std::string> tile_loss() {
  constexpr lesson02::TileLayout tile{};
  std::vector<int> owner(lesson02::kTileFloats, -1);
  for (int i = 0; i < lesson02::kTileElems; ++i) {
    const std::string number = "staged number " + std::to_string(i);
    if (lesson02::TileLayout::kPairAccess == lesson02::PairAccess::one_float2 &&
        tile.im_offset(i) != tile.re_offset(i) + 1) {
      return number + ": one float2 reads re and the float right after it, but im_offset(" +
             std::to_string(i) + ") is " + std::to_string(tile.im_offset(i)) + " and re_offset(" +
             std::to_string(i) + ") " + std::to_string(tile.re_offset(i));
    }
    for (int offset : {tile.re_offset(i), tile.im_offset(i)}) {
      if (offset < 0 || offset >= lesson02::kTileFloats) {
        return number + " has a part at float " + std::to_string(offset) + ", outside the tile's " +
               std::to_string(lesson02::kTileFloats) + " floats";
      }
      if (owner[offset] >= 0) {
        const std::string who =
            owner[offset] == i
                ? number + "'s re and im"
                : "staged numbers " + std::to_string(owner[offset]) + " and " + std::to_string(i);
        return who + " share float " + std::to_string(offset) +
               ": the tile loses data (every part needs a float of its own)";
      }
      owner[offset] = i;
    }
  }
  return std::nullopt;
}

TEST(Layout, EveryInstructionCostsItsIdeal) {
  const std::optional<std::string> loss = tile_loss();
  ASSERT_FALSE(loss.has_value()) << "TileLayout: " << *loss;
  const bool shown = lesson02::testing::predictions_written();
  for (int n : {lesson02::kBlockThreads * 4, 1000, 1}) {
    const kit::Trace trace = lesson02::testing::exercise_trace(n);
    for (const kit::TraceEntry& e : trace.entries()) {
      const kit::BankReport r = kit::analyze(e.access, e.op);
      ASSERT_TRUE(r.ok()) << e.what << ": " << kit::to_string(r.error);
      // The starter's cost is Part 1's: its count shows once your predictions are written.
      EXPECT_TRUE(r.wavefronts == r.ideal)
          << e.what << " (" << e.access.width << "-byte, n = " << n << ") costs "
          << kit::count_text(shown, r.wavefronts, "wavefronts") << ", its ideal " << r.ideal
          << ": lane 0 uses bank " << r.lanes[0].bank << ", lane 1 bank " << r.lanes[1].bank
          << ", lane 16 bank " << r.lanes[16].bank << ". "
          << kit::drawing_text(shown,
                               "Try `bank-map --type float --stride 2` to see the starter's reads.")
          << kit::counts_note(shown);
      if (r.wavefronts != r.ideal) {
        break; // one message per trace is enough
      }
    }
  }
}

TEST(Layout, AsCheapAsTheConflictFreeTwin) {
  const std::optional<std::string> loss = tile_loss();
  ASSERT_FALSE(loss.has_value()) << "TileLayout: " << *loss;
  const int n = lesson02::kBlockThreads * 100;
  const kit::SharedCounts mine = lesson02::testing::exercise_trace(n).expected();
  const double ratio = lesson02::testing::model_ratio(n);
  const bool shown = lesson02::testing::predictions_written();
  EXPECT_TRUE(kit::prediction_equals(ratio, 1.0))
      << "the model says correlate spends " << kit::count_text(shown, ratio, "x")
      << " the wavefronts of its twin (loads: "
      << kit::count_text(shown, mine.load_wavefronts_per_request(), "wavefronts")
      << " per request, stores: " << kit::count_text(shown, mine.store_wavefronts_per_request(), "")
      << ")" << kit::counts_note(shown);
}

} // namespace
