// The tile layout must lose no value: TileLayout must map the block's tile (kTileRows x
// kTileDim) one-to-one into the kTileCapacity floats reserved for it; and the staging stores,
// which write tile rows, must cost their ideal. Keep both true as you change the layout.
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "score_rows/layout_checks.hpp"

namespace {

TEST(TileLayout, OneToOneIntoTheTileBuffer) {
  ASSERT_TRUE((families::score_rows::one_to_one_in_the_tile_buffer<lesson03::ScoreRows,
                                                                   lesson03::TileLayout>()));
}

TEST(TileLayout, EveryRowAtItsIdeal) {
  ASSERT_TRUE((families::score_rows::row_stores_at_one_wavefront<lesson03::ScoreRows,
                                                                 lesson03::TileLayout>()));
}

} // namespace
