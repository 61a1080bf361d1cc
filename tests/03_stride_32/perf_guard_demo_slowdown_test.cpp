// The demos timed against a row read in one saturating run: a column of the 32x32 tile and a
// column of the 32x33 tile, each in the kit's band around the model's ratio.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

TEST(DemoSlowdown, ColumnOf32x32Tile) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson03::column_read_demo(), lesson03::row_read_demo());
}

TEST(DemoSlowdown, ColumnOf32x33TileOverARow) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson03::padded_column_read_demo(),
                                      lesson03::row_read_demo());
}

} // namespace
