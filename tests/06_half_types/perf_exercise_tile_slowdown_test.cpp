// Your tile timed: a column read of your half tile and a pair store of the half2 kernel's
// phase 1, each issued by every warp of a saturating launch, run as fast as a row read (the
// model's ratio is 1 for a good padding: the band is 0.95-1.05).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/layout.hpp"
#include "kit/pattern.hpp"
#include "kit/testing.hpp"

namespace {

void expect_as_fast_as(const kit::Pattern& a, const kit::Pattern& b) {
  const double r = kit::model_ratio(a, b);
  ASSERT_DOUBLE_EQ(r, 1.0) << "the model already says '" << a.name << "' costs " << r << "x '"
                           << b.name << "' with kHalfPitch = " << lesson06::kHalfPitch
                           << ": fix the padding first (the CPU tests say why)";
  kit::testing::expect_model_slowdown(a, b);
}

TEST(TileSlowdown, ColumnReadAsFastAsARow) {
  KIT_REQUIRE_TIMING();
  const kit::Pattern column =
      kit::layout_pattern("column 0 of your half tile", lesson06::HalfTileLayout{}, [](int x) {
        return kit::Coord{x, 0};
      });
  expect_as_fast_as(column, lesson06::half_stride_one_demo());
}

TEST(TileSlowdown, PairStoreAsFastAsAFloatRow) {
  KIT_REQUIRE_TIMING();
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << *misaligned;
  // Warp 0's column-2j store of phase 1, against 32 consecutive 4-byte stores.
  const kit::Trace tile = lesson06::testing::pair_tile_trace();
  const kit::TraceEntry& store = tile.entries().front();
  kit::Pattern pairs;
  pairs.name = "phase-1 pair store of your tile";
  pairs.access = store.access;
  pairs.op = kit::SharedOp::store;
  expect_as_fast_as(pairs, kit::strided_pattern(sizeof(__half2), 1, kit::SharedOp::store));
}

} // namespace
