// Part 2 on the CPU: with your tile layout, every column of the half tile reads in one
// wavefront, and every instruction of transpose_half costs the ideal of its width, ragged
// edges included; each with a tile that keeps every element (a layout that loses data scores
// nothing, however cheap).
#include <gtest/gtest.h>

#include <utility>

#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/trace.hpp"

namespace {

using lesson06::kTileDim;

TEST(HalfLayout, EveryColumnReadIsOneWavefront) {
  const auto loss = lesson06::testing::tile_loss();
  ASSERT_FALSE(loss.has_value()) << *loss;
  for (int y = 0; y < kTileDim; ++y) {
    // Phase 2 of transpose_half: lane x reads element (x, y), a tile column.
    const kit::BankReport r = kit::analyze(kit::warp_access(lesson06::HalfTileLayout{}, [&](int x) {
      return kit::Coord{x, y};
    }));
    ASSERT_TRUE(r.ok()) << kit::to_string(r.error);
    EXPECT_EQ(r.wavefronts, r.ideal)
        << "column " << y << " with kHalfPitch = " << lesson06::kHalfPitch << " costs "
        << r.wavefronts << " wavefronts: " << kit::colliding_lanes(r)
        << ". Draw it: `bank-map --type half --layout " << kTileDim << "x" << lesson06::kHalfPitch
        << " --column " << y << "`.";
  }
}

TEST(HalfLayout, TransposeHalfCostsTheIdealEverywhere) {
  const auto loss = lesson06::testing::tile_loss();
  ASSERT_FALSE(loss.has_value()) << *loss;
  for (const auto& [rows, cols] : {std::pair{32, 32}, std::pair{1, 1}, std::pair{31, 33},
                                   std::pair{1000, 777}, std::pair{1, 4097}, std::pair{4097, 1}}) {
    const kit::Trace trace = lesson06::testing::half_trace(rows, cols);
    for (const kit::TraceEntry& e : trace.entries()) {
      const kit::BankReport r = kit::analyze(e.access, e.op);
      ASSERT_TRUE(r.ok()) << e.what << ": " << kit::to_string(r.error);
      EXPECT_EQ(r.wavefronts, r.ideal)
          << rows << " x " << cols << ", " << e.what << ": " << r.wavefronts << " wavefronts where "
          << r.ideal << " would do";
    }
  }
}

} // namespace
