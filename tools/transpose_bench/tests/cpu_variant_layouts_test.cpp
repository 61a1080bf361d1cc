// The variants of transpose-bench on the CPU: their layouts (variant_layouts.hpp) give every
// tile element an offset of its own, the float2 variant's layout is the composition of
// CuTe's swizzles it is drawn as, the banded order visits every tile once, a CPU run of the
// swizzled float2 tile transposes, and every shared access of every variant, at every shape,
// ragged edges included, costs its width's ideal in the bank model.
#include <gtest/gtest.h>

#include <bitset>
#include <cstdint>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/matrix.hpp"
#include "kit/testing_matrix.hpp"
#include "variant_layouts.hpp"
#include "variant_trace.hpp"

namespace {

using namespace transpose_variants;
using kit::testing::Shape;
using transpose_variants::testing::kVariantTraces;
using transpose_variants::testing::VariantTrace;

// Full tiles of every variant, ragged tiles of every kind, sides that are and are not
// multiples of 2 and 4, one row, one column.
const Shape kShapes[] = {
    {64, 64},    {1024, 1024}, {1, 1},    {31, 33},  {33, 31},  {96, 130},
    {1000, 777}, {1000, 776},  {1, 4097}, {4097, 1}, {130, 98},
};

TEST(VariantLayouts, EverySharedAccessCostsTheIdeal) {
  for (const VariantTrace& v : kVariantTraces) {
    for (const auto& s : kShapes) {
      const kit::Trace trace = v.trace(s.rows, s.cols);
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

TEST(VariantLayouts, TransposesStageEveryElementThroughSharedMemory) {
  for (const VariantTrace& v : kVariantTraces) {
    const kit::Trace trace = v.trace(64, 64);
    if (!v.transposes) {
      EXPECT_EQ(trace.expected(), kit::SharedCounts{}) << v.name << " is a copy: no shared memory";
      continue;
    }
    // Each of the 64 x 64 floats is stored once and loaded once: requests x lanes x floats
    // per lane add up to 4096 each way.
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
void expect_padded_offsets_distinct() {
  const auto collision = kit::first_collision(PaddedLayout<TileDim>{}, TileDim * (TileDim + 1));
  EXPECT_FALSE(collision.has_value())
      << "tile " << TileDim << ": (" << collision->a.row << ", " << collision->a.col << ") and ("
      << collision->b.row << ", " << collision->b.col << ") at offset " << collision->offset;
}

TEST(VariantLayouts, PaddedOffsetsAreDistinct) {
  expect_padded_offsets_distinct<32>();
  expect_padded_offsets_distinct<64>();
}

TEST(VariantLayouts, QuadsCoverTheTileOnceEachWay) {
  std::set<int> stored, loaded;
  for (int q = 0; q < kQuadsPerTile; ++q) {
    for (int j = 0; j < kQuadFloats; ++j) {
      // Phase 1 keeps input element (quad_row, quad_col + j) at its own tile position; phase
      // 2 writes output element (quad_row, quad_col + j), the input's (quad_col + j, quad_row).
      const kit::Coord s = quad_store_coord(q, j), l = quad_load_coord(q, j);
      EXPECT_TRUE(s.row == quad_row(q) && s.col == quad_col(q) + j) << "quad " << q << ", " << j;
      EXPECT_TRUE(l.row == quad_col(q) + j && l.col == quad_row(q)) << "quad " << q << ", " << j;
      EXPECT_TRUE(stored.insert(QuadLayout{}(s.row, s.col)).second)
          << "quad " << q << ", float " << j;
      EXPECT_TRUE(loaded.insert(QuadLayout{}(l.row, l.col)).second)
          << "quad " << q << ", float " << j;
    }
  }
  EXPECT_EQ(stored, loaded) << "phase 2 reads exactly the offsets phase 1 wrote";
}

TEST(VariantLayouts, SwizzledOffsetsArePairsOfAPermutation) {
  std::set<int> seen;
  for (int r = 0; r < kSwizzledDim; ++r) {
    for (int p = 0; p < kSwizzledDim / kPairFloats; ++p) {
      const int pair = swizzled_pair_offset(r, p);
      ASSERT_EQ(pair % kPairFloats, 0) << "an 8-byte store needs an 8-byte aligned offset";
      for (int e = 0; e < kPairFloats; ++e) {
        // The float store_pair puts at pair + e is column 2p + e, or 2p + 1 - e when swapped.
        const int c = kPairFloats * p + (swizzled_pair_swapped(r) ? 1 - e : e);
        ASSERT_EQ(SwizzledLayout{}(r, c), pair + e) << "row " << r << ", pair " << p;
      }
    }
    for (int c = 0; c < kSwizzledDim; ++c) {
      // The kernel's arithmetic is the composition of swizzles, and the formula drawn above
      // SwizzledLayout.
      const int offset = SwizzledLayout{}(r, c);
      ASSERT_EQ(offset, SwizzledComposition{}(r, c)) << "(" << r << ", " << c << ")";
      ASSERT_EQ(offset, 64 * r + 2 * ((c / 2) ^ ((r >> 1) & 15)) + ((c & 1) ^ ((r >> 5) & 1)))
          << "(" << r << ", " << c << ")";
      ASSERT_GE(offset, 0);
      ASSERT_LT(offset, kSwizzledDim * kSwizzledDim);
      ASSERT_TRUE(seen.insert(offset).second) << "(" << r << ", " << c << ")";
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
          std::uint32_t a = in[kit::matrix_index(row0 + r, col0 + c, cols)];
          std::uint32_t b =
              c + 1 < tile_cols ? in[kit::matrix_index(row0 + r, col0 + c + 1, cols)] : 0;
          if (swizzled_pair_swapped(r)) {
            std::swap(a, b);
          }
          tile[static_cast<std::size_t>(swizzled_pair_offset(r, x))] = a;
          tile[static_cast<std::size_t>(swizzled_pair_offset(r, x) + 1)] = b;
        }
      }
      for (int r_out = 0; r_out < tile_cols; ++r_out) {
        for (int c = 0; c < tile_rows; ++c) {
          out[kit::matrix_index(col0 + r_out, row0 + c, rows)] =
              tile[static_cast<std::size_t>(SwizzledLayout{}(c, r_out))];
        }
      }
    }
  }
  return out;
}

TEST(VariantLayouts, SwizzledTileTransposesOnTheCpu) {
  for (const auto& s : kShapes) {
    std::vector<std::uint32_t> in(s.size()); // every element different: a misplaced one shows
    std::iota(in.begin(), in.end(), 1u);
    EXPECT_TRUE(kit::testing::same_bits(emulate_swizzled(in, s.rows, s.cols),
                                        kit::testing::cpu_transpose(in, s), s.rows, kSwizzledDim))
        << s.name();
  }
}

TEST(VariantLayouts, BandedOrderTakesEveryTileOnce) {
  for (const auto& [tiles_rows, tiles_cols] :
       {std::pair{1, 1}, std::pair{1, 100}, std::pair{100, 1}, std::pair{16, 13}, std::pair{33, 65},
        std::pair{128, 128}, std::pair{7, kBandTiles}}) {
    std::vector<int> seen(static_cast<std::size_t>(tiles_rows * tiles_cols), 0);
    for (int t = 0; t < tiles_rows * tiles_cols; ++t) {
      const kit::Coord i = banded_tile(t, tiles_rows, tiles_cols);
      ASSERT_TRUE(i.row >= 0 && i.row < tiles_rows && i.col >= 0 && i.col < tiles_cols)
          << "tile " << t << " of " << tiles_rows << " x " << tiles_cols << " -> (" << i.row << ", "
          << i.col << ")";
      ASSERT_EQ(seen[static_cast<std::size_t>(i.row * tiles_cols + i.col)]++, 0)
          << "tile (" << i.row << ", " << i.col << ") taken twice";
    }
  }
}

TEST(VariantLayouts, BandedOrderKeepsABandTogether) {
  // 128 x 128 tiles (an 8192 x 8192 matrix of 64 x 64 tiles): the first kBandTiles x 33
  // tiles taken are the top of the first band, a square of the matrix.
  const int n = kBandTiles * 33;
  for (int t = 0; t < n; ++t) {
    const kit::Coord i = banded_tile(t, 128, 128);
    EXPECT_EQ(i.row, t / kBandTiles);
    EXPECT_EQ(i.col, t % kBandTiles);
  }
}

} // namespace
