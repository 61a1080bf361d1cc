// The variants of faster.hpp on the CPU: their index functions (faster_layout.hpp) give
// every tile element a slot of its own, the banded order visits every tile once, a CPU run
// of the swizzled float2 tile transposes, and every shared access of every variant, at every
// shape, ragged edges included, costs its width's ideal in the bank model.
#include <gtest/gtest.h>

#include <bitset>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <faster.hpp>
#include <faster_layout.hpp>

#include "faster_trace.hpp"
#include "kit/bank_model.hpp"
#include "kit/testing.hpp"
#include "matrix_check.hpp"

namespace {

using namespace lesson05::faster;
using lesson05::testing::faster_trace;

// Full tiles of every variant, ragged tiles of every kind, sides that are and are not
// multiples of 2 and 4, one row, one column.
const lesson05::testing::Shape kShapes[] = {
    {64, 64},    {1024, 1024}, {1, 1},    {31, 33},  {33, 31},  {96, 130},
    {1000, 777}, {1000, 776},  {1, 4097}, {4097, 1}, {130, 98},
};

TEST(FasterLayout, EveryVariantHasATrace) {
  for (const Variant& v : kVariants) {
    EXPECT_TRUE(faster_trace(v.name, 64, 64).has_value())
        << v.name << " has no trace in faster_trace.hpp: add one, built from the index "
        << "functions its kernel uses";
  }
}

TEST(FasterLayout, EverySharedAccessCostsTheIdeal) {
  for (const Variant& v : kVariants) {
    for (const auto& s : kShapes) {
      const kit::Trace trace = *faster_trace(v.name, s.rows, s.cols);
      for (const kit::TraceEntry& e : trace.entries()) {
        const kit::BankReport r = kit::analyze(e.access, e.op);
        ASSERT_TRUE(r.ok()) << v.name << " " << s.name() << ", " << e.what << ": "
                            << kit::to_string(r.error);
        EXPECT_EQ(r.wavefronts, r.ideal)
            << v.name << " on " << s.name() << ", " << e.what << " (" << e.access.width
            << " bytes): " << r.wavefronts << " wavefronts where " << r.ideal << " would do";
      }
    }
  }
}

TEST(FasterLayout, TransposesStageEveryElementThroughSharedMemory) {
  for (const Variant& v : kVariants) {
    const kit::SharedCounts c = faster_trace(v.name, 64, 64)->expected();
    if (!v.transposes) {
      EXPECT_EQ(c, kit::SharedCounts{}) << v.name << " is a copy: no shared memory";
      continue;
    }
    // Each of the 64 x 64 floats is stored once and loaded once: requests x lanes x floats
    // per lane add up to 4096 each way.
    const kit::Trace trace = *faster_trace(v.name, 64, 64);
    std::uint64_t stored = 0, loaded = 0;
    for (const kit::TraceEntry& e : trace.entries()) {
      const std::uint64_t floats =
          e.repeat * static_cast<std::uint64_t>(std::bitset<32>(e.access.mask).count()) *
          static_cast<std::uint64_t>(e.access.width / sizeof(float));
      (e.op == kit::SharedOp::store ? stored : loaded) += floats;
    }
    EXPECT_EQ(stored, 64u * 64u) << v.name;
    EXPECT_EQ(loaded, 64u * 64u) << v.name;
  }
}

template <int TileDim>
void expect_padded_slots_distinct() {
  std::set<int> seen;
  for (int r = 0; r < TileDim; ++r) {
    for (int c = 0; c < TileDim; ++c) {
      const int slot = padded_slot<TileDim>(r, c);
      ASSERT_GE(slot, 0);
      ASSERT_LT(slot, TileDim * (TileDim + 1));
      ASSERT_TRUE(seen.insert(slot).second) << "tile " << TileDim << ": (" << r << ", " << c << ")";
    }
  }
}

TEST(FasterLayout, PaddedSlotsAreDistinct) {
  expect_padded_slots_distinct<32>();
  expect_padded_slots_distinct<64>();
}

TEST(FasterLayout, QuadsCoverTheTileOnceEachWay) {
  std::set<int> stored, loaded;
  for (int q = 0; q < kQuadsPerTile; ++q) {
    for (int j = 0; j < kQuadFloats; ++j) {
      // Phase 1 keeps input element (quad_row, quad_col + j) at its own tile position; phase
      // 2 writes output element (quad_row, quad_col + j), the input's (quad_col + j, quad_row).
      EXPECT_EQ(quad_store_slot(q, j),
                padded_slot<lesson05::kTileDim>(quad_row(q), quad_col(q) + j));
      EXPECT_EQ(quad_load_slot(q, j),
                padded_slot<lesson05::kTileDim>(quad_col(q) + j, quad_row(q)));
      EXPECT_TRUE(stored.insert(quad_store_slot(q, j)).second) << "quad " << q << ", float " << j;
      EXPECT_TRUE(loaded.insert(quad_load_slot(q, j)).second) << "quad " << q << ", float " << j;
    }
  }
  EXPECT_EQ(stored, loaded) << "phase 2 reads exactly the slots phase 1 wrote";
}

TEST(FasterLayout, SwizzledSlotsArePairsOfAPermutation) {
  std::set<int> seen;
  for (int r = 0; r < kSwizzledDim; ++r) {
    for (int p = 0; p < kSwizzledDim / kPairFloats; ++p) {
      const int pair = swizzled_pair_slot(r, p);
      ASSERT_EQ(pair % kPairFloats, 0) << "an 8-byte store needs an 8-byte aligned slot";
      for (int e = 0; e < kPairFloats; ++e) {
        // The float store_pair puts at pair + e is column 2p + e, or 2p + 1 - e when swapped.
        const int c = kPairFloats * p + (swizzled_pair_swapped(r) ? 1 - e : e);
        ASSERT_EQ(swizzled_slot(r, c), pair + e) << "row " << r << ", pair " << p;
      }
    }
    for (int c = 0; c < kSwizzledDim; ++c) {
      const int slot = swizzled_slot(r, c);
      ASSERT_GE(slot, 0);
      ASSERT_LT(slot, kSwizzledDim * kSwizzledDim);
      ASSERT_TRUE(seen.insert(slot).second) << "(" << r << ", " << c << ")";
    }
  }
}

// The float2 kernel's two phases on the CPU, through the swizzled tile: pairs in (swapped in
// the rows that say so), single floats out.
std::vector<std::uint32_t> emulate_swizzled(const std::vector<std::uint32_t>& in, int rows,
                                            int cols) {
  std::vector<std::uint32_t> out(in.size()), tile(kSwizzledDim * kSwizzledDim);
  for (int row0 = 0; row0 < rows; row0 += kSwizzledDim) {
    for (int col0 = 0; col0 < cols; col0 += kSwizzledDim) {
      const int tile_rows = rows - row0 < kSwizzledDim ? rows - row0 : kSwizzledDim;
      const int tile_cols = cols - col0 < kSwizzledDim ? cols - col0 : kSwizzledDim;
      for (int r = 0; r < tile_rows; ++r) {
        for (int x = 0; kPairFloats * x < tile_cols; ++x) {
          const int c = kPairFloats * x;
          std::uint32_t a = in[lesson05::matrix_index(row0 + r, col0 + c, cols)];
          std::uint32_t b =
              c + 1 < tile_cols ? in[lesson05::matrix_index(row0 + r, col0 + c + 1, cols)] : 0;
          if (swizzled_pair_swapped(r)) {
            std::swap(a, b);
          }
          tile[static_cast<std::size_t>(swizzled_pair_slot(r, x))] = a;
          tile[static_cast<std::size_t>(swizzled_pair_slot(r, x) + 1)] = b;
        }
      }
      for (int r_out = 0; r_out < tile_cols; ++r_out) {
        for (int c = 0; c < tile_rows; ++c) {
          out[lesson05::matrix_index(col0 + r_out, row0 + c, rows)] =
              tile[static_cast<std::size_t>(swizzled_slot(c, r_out))];
        }
      }
    }
  }
  return out;
}

TEST(FasterLayout, SwizzledTileTransposesOnTheCpu) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const auto& s : kShapes) {
    const std::vector<std::uint32_t> in = kit::testing::random_bits(s.size(), seed + s.size());
    EXPECT_TRUE(lesson05::testing::same_bits(emulate_swizzled(in, s.rows, s.cols),
                                             lesson05::testing::cpu_transpose(in, s), s.rows))
        << s.name();
  }
}

TEST(FasterLayout, BandedOrderTakesEveryTileOnce) {
  for (const auto& [tiles_rows, tiles_cols] :
       {std::pair{1, 1}, std::pair{1, 100}, std::pair{100, 1}, std::pair{16, 13}, std::pair{33, 65},
        std::pair{128, 128}, std::pair{7, kBandTiles}}) {
    std::vector<int> seen(static_cast<std::size_t>(tiles_rows * tiles_cols), 0);
    for (int t = 0; t < tiles_rows * tiles_cols; ++t) {
      const TileIndex i = banded_tile(t, tiles_rows, tiles_cols);
      ASSERT_TRUE(i.row >= 0 && i.row < tiles_rows && i.col >= 0 && i.col < tiles_cols)
          << "tile " << t << " of " << tiles_rows << " x " << tiles_cols << " -> (" << i.row << ", "
          << i.col << ")";
      ASSERT_EQ(seen[static_cast<std::size_t>(i.row * tiles_cols + i.col)]++, 0)
          << "tile (" << i.row << ", " << i.col << ") taken twice";
    }
  }
}

TEST(FasterLayout, BandedOrderKeepsABandTogether) {
  // 128 x 128 tiles (an 8192 x 8192 matrix of 64 x 64 tiles): the first kBandTiles x 33
  // tiles taken are the top of the first band, a square of the matrix.
  const int n = kBandTiles * 33;
  for (int t = 0; t < n; ++t) {
    const TileIndex i = banded_tile(t, 128, 128);
    EXPECT_EQ(i.row, t / kBandTiles);
    EXPECT_EQ(i.col, t % kBandTiles);
  }
}

} // namespace
