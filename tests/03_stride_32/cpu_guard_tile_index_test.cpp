// The tile layout must lose no value: tile_index maps the block's tile (kBlockRows x kTileDim)
// one-to-one into the kTileCapacity floats reserved for it; and the staging stores, which
// write tile rows, stay conflict-free (the starter's layout already does both; keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "score_rows_trace.hpp"

namespace {

TEST(TileIndex, OneToOneIntoTheTileBuffer) {
  std::vector<int> owner(lesson03::kTileCapacity, -1);
  for (int r = 0; r < lesson03::kBlockRows; ++r) {
    for (int c = 0; c < lesson03::kTileDim; ++c) {
      const int i = lesson03::tile_index(r, c);
      ASSERT_GE(i, 0) << "element (" << r << ", " << c << ")";
      ASSERT_LT(i, lesson03::kTileCapacity)
          << "element (" << r << ", " << c << ") lies outside the tile's buffer";
      ASSERT_EQ(owner[i], -1) << "elements share float " << i << ": (" << r << ", " << c
                              << ") and (" << owner[i] / lesson03::kTileDim << ", "
                              << owner[i] % lesson03::kTileDim << ")";
      owner[i] = r * lesson03::kTileDim + c;
    }
  }
}

TEST(TileIndex, EveryRowIsOneWavefront) {
  for (int r = 0; r < lesson03::kBlockRows; ++r) {
    kit::WarpAccess a;
    a.width = sizeof(float);
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      a.address[lane] = lesson03::testing::bytes_of(lesson03::tile_index(r, lane));
    }
    const kit::BankReport rep = kit::analyze(a, kit::SharedOp::store);
    ASSERT_TRUE(rep.ok());
    ASSERT_EQ(rep.wavefronts, 1) << "row " << r << " costs " << rep.wavefronts
                                 << " wavefronts: the staging stores write whole rows";
  }
}

} // namespace
