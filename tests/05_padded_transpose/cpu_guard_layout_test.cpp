// The given parts of the tile stay sound whatever you change: every thread of phase 1 has a
// slot of its own inside the tile, phase 1 stores cost 1 wavefront, and the padded tile
// fits a block's static shared memory.
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::kTileDim;

template <int Pitch>
void expect_slots_distinct_and_inside() {
  std::vector<int> seen(static_cast<std::size_t>(kTileDim * Pitch), 0);
  for (int y = 0; y < kTileDim; ++y) {
    for (int x = 0; x < kTileDim; ++x) {
      const int slot = lesson05::store_slot<Pitch>(x, y);
      ASSERT_GE(slot, 0) << "pitch " << Pitch << ", thread (" << x << ", " << y << ")";
      ASSERT_LT(slot, kTileDim * Pitch)
          << "pitch " << Pitch << ", thread (" << x << ", " << y << ")";
      ASSERT_EQ(seen[static_cast<std::size_t>(slot)]++, 0)
          << "pitch " << Pitch << ": two elements share slot " << slot;
    }
  }
}

TEST(Layout, EveryElementHasASlotOfItsOwn) {
  expect_slots_distinct_and_inside<lesson05::kTiledPitch>();
  expect_slots_distinct_and_inside<lesson05::kPaddedPitch>();
}

TEST(Layout, RowStoresCostOneWavefront) {
  for (const kit::Trace& trace : {lesson05::testing::tiled_trace(kTileDim, kTileDim),
                                  lesson05::testing::padded_trace(kTileDim, kTileDim)}) {
    for (const kit::TraceEntry& e : trace.entries()) {
      if (e.op == kit::SharedOp::store) {
        const kit::BankReport r = kit::analyze(e.access, e.op);
        ASSERT_TRUE(r.ok()) << e.what;
        EXPECT_EQ(r.wavefronts, r.ideal) << e.what;
      }
    }
  }
}

TEST(Layout, PaddedTileFitsStaticSharedMemory) {
  constexpr int kStaticSharedLimit = 48 * 1024; // bytes of __shared__ a block may declare
  EXPECT_GE(lesson05::kPaddedPitch, kTileDim) << "a tile row must hold kTileDim floats";
  EXPECT_LE(kTileDim * lesson05::kPaddedPitch * static_cast<int>(sizeof(float)),
            kStaticSharedLimit);
}

} // namespace
