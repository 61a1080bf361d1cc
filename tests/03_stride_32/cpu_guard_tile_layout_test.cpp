// The tile layout must lose no value: TileLayout maps the block's tile (kTileRows x kTileDim)
// one-to-one into the kTileCapacity floats reserved for it; and the staging stores, which
// write tile rows, stay conflict-free (the starter's layout already does both; keep it so).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace {

TEST(TileLayout, OneToOneIntoTheTileBuffer) {
  const auto clash = kit::first_collision(lesson03::TileLayout{}, lesson03::kTileCapacity);
  ASSERT_FALSE(clash) << kit::describe(*clash, lesson03::kTileCapacity,
                                       "the tile's kTileCapacity floats");
}

TEST(TileLayout, EveryRowIsOneWavefront) {
  for (int r = 0; r < lesson03::kTileRows; ++r) {
    const kit::BankReport rep = kit::analyze(kit::warp_access(lesson03::TileLayout{},
                                                              [&](int lane) {
                                                                return kit::Coord{r, lane};
                                                              }),
                                             kit::SharedOp::store);
    ASSERT_TRUE(rep.ok());
    ASSERT_EQ(rep.wavefronts, 1) << "row " << r << " costs " << rep.wavefronts
                                 << " wavefronts: the staging stores write whole rows\n"
                                 << kit::print_layout(lesson03::TileLayout{}, r + 1);
  }
}

} // namespace
