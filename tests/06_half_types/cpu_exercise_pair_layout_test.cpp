// Part 3 on the CPU: with your padding, every pair access of transpose_half2 (phase-1 column
// stores, phase-2 row loads) is aligned and costs one wavefront, in a tile that keeps every
// element (a layout that loses data scores nothing, however cheap).
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/bank_model.hpp"
#include "kit/trace.hpp"

namespace {

TEST(PairLayout, EveryPairAccessIsOneWavefront) {
  const auto loss = lesson06::testing::tile_loss();
  ASSERT_FALSE(loss.has_value()) << *loss;
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  const kit::Trace trace = lesson06::testing::pair_tile_trace();
  for (const kit::TraceEntry& e : trace.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    ASSERT_TRUE(r.ok()) << e.what << ": " << kit::to_string(r.error);
    EXPECT_EQ(r.wavefronts, r.ideal)
        << e.what << " with kHalfPitch = " << lesson06::kHalfPitch << " costs " << r.wavefronts
        << " wavefronts: " << kit::colliding_lanes(r);
  }
}

TEST(PairLayout, Half2KernelCostsTheIdealEverywhere) {
  const auto loss = lesson06::testing::tile_loss();
  ASSERT_FALSE(loss.has_value()) << *loss;
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  for (const auto& [rows, cols] :
       {std::pair{64, 96}, std::pair{62, 34}, std::pair{1000, 778}, std::pair{31, 33}}) {
    const kit::Trace trace = lesson06::testing::half2_trace(rows, cols);
    for (const kit::TraceEntry& e : trace.entries()) {
      const kit::BankReport r = kit::analyze(e.access, e.op);
      ASSERT_TRUE(r.ok()) << e.what << ": " << kit::to_string(r.error);
      EXPECT_EQ(r.wavefronts, r.ideal) << rows << " x " << cols << ", " << e.what;
    }
  }
}

} // namespace
