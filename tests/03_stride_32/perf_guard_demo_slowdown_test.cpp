// The demos timed against a row read in one saturating run: a column of the 32x32 tile about
// 30x slower (model 32x), a column of the 32x33 tile as fast as a row (model 1x).
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

void expect_model_slowdown(const kit::Pattern& p) {
  kit::PatternBench a(p);
  kit::PatternBench b(lesson03::row_read_demo());
  const kit::PatternPair pair = kit::saturating_pair(a, b);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, kit::model_ratio(p, b.pattern()));
}

TEST(DemoSlowdown, ColumnOf32x32Tile) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson03::column_read_demo());
}

TEST(DemoSlowdown, ColumnOf32x33TileAsFastAsARow) {
  KIT_REQUIRE_TIMING();
  expect_model_slowdown(lesson03::padded_column_read_demo());
}

} // namespace
