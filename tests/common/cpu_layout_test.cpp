// The layout vocabulary: pitched rows, CuTe-style swizzles and their compositions, the size of
// the array a layout needs, collisions, and warp accesses the bank model takes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace {

using Plain = kit::Pitched<float, 32, 32>;
using Padded = kit::Pitched<float, 32, 32, 33>;
using XorTile = kit::Swizzled<Plain, kit::Swizzle<5, 0, 5>>; // (r, c) -> 32 r + (c ^ r)

static_assert(Plain{}(2, 3) == 67, "row-major");
static_assert(Padded{}(2, 3) == 69, "rows 33 apart");
static_assert(kit::cosize<Plain>() == 1024 && kit::cosize<Padded>() == 31 * 33 + 32,
              "the largest offset + 1");
static_assert(XorTile{}(3, 5) == 3 * 32 + (5 ^ 3), "Swizzle<5,0,5>: column XOR row");
static_assert(kit::Swizzle<3, 4, 3>{}(0x80) == (0x80 ^ 0x10), "128B mode: bit 7 XORs into bit 4");

/// Lane l reads column `col`: lane l takes row l.
template <class Layout>
kit::WarpAccess column(int col) {
  return kit::warp_access(Layout{}, [col](int lane) { return kit::Coord{lane, col}; });
}

TEST(Layout, ColumnCostsOfThePlainPaddedAndSwizzledTiles) {
  for (int col = 0; col < 32; ++col) {
    EXPECT_EQ(kit::wavefronts(column<Plain>(col)), 32) << "column " << col;
    EXPECT_EQ(kit::wavefronts(column<Padded>(col)), 1) << "column " << col;
    EXPECT_EQ(kit::wavefronts(column<XorTile>(col)), 1) << "column " << col;
  }
}

TEST(Layout, SwizzlesAreBijectionsOnTheirBlock) {
  // Every (B, M, S) the lessons use, and a few more: a permutation of 2^(B + M + S) offsets.
  const auto check = [](auto swizzle, int span) {
    std::vector<int> seen(static_cast<std::size_t>(span), 0);
    for (int o = 0; o < span; ++o) {
      const int s = swizzle(o);
      ASSERT_GE(s, 0);
      ASSERT_LT(s, span);
      ++seen[static_cast<std::size_t>(s)];
    }
    for (int o = 0; o < span; ++o) {
      ASSERT_EQ(seen[static_cast<std::size_t>(o)], 1) << "offset " << o;
    }
  };
  check(kit::Swizzle<5, 0, 5>{}, 1 << 10);
  check(kit::Swizzle<3, 4, 3>{}, 1 << 10);
  check(kit::Swizzle<2, 4, 3>{}, 1 << 9);
  check(kit::Swizzle<1, 4, 3>{}, 1 << 8);
  check(kit::Swizzle<4, 1, 6>{}, 1 << 11);
  check(kit::Swizzle<3, 3, 3>{}, 1 << 9);
}

TEST(Layout, ComposedSwizzlesApplyInOrder) {
  using Twice =
      kit::Swizzled<kit::Pitched<float, 64, 64>, kit::Swizzle<4, 1, 6>, kit::Swizzle<1, 0, 11>>;
  for (int r = 0; r < 64; ++r) {
    for (int c = 0; c < 64; ++c) {
      const int plain = r * 64 + c;
      const int twice = kit::Swizzle<1, 0, 11>{}(kit::Swizzle<4, 1, 6>{}(plain));
      EXPECT_EQ(Twice{}(r, c), twice);
    }
  }
  EXPECT_FALSE(kit::first_collision(Twice{}, 64 * 64));
}

/// A layout written by hand: rows 0 and 16 share offsets.
struct Folded {
  using value_type = float;
  static constexpr int kRows = 32;
  static constexpr int kCols = 32;
  constexpr int operator()(int r, int c) const { return (r % 16) * 32 + c; }
};

TEST(Layout, FirstCollisionNamesBothElementsOrTheOneOutside) {
  const auto clash = kit::first_collision(Folded{}, 1024);
  ASSERT_TRUE(clash);
  EXPECT_EQ(clash->a.row, 0);
  EXPECT_EQ(clash->b.row, 16);
  EXPECT_EQ(clash->offset, 0);
  const auto outside = kit::first_collision(Padded{}, 1024);
  ASSERT_TRUE(outside) << "the padded tile needs 1055 floats";
  EXPECT_GE(outside->offset, 1024);
  EXPECT_FALSE(kit::first_collision(Padded{}, kit::cosize<Padded>()));
  EXPECT_EQ(kit::describe(*clash, 1024, "the tile"),
            "element (16, 0) at offset 0 shares its offset with element (0, 0)");
  EXPECT_EQ(kit::describe(*outside, 1024, "the tile's 1024 floats"),
            "element (" + std::to_string(outside->b.row) + ", " + std::to_string(outside->b.col) +
                ") at offset " + std::to_string(outside->offset) +
                " lies outside the tile's 1024 floats");
}

/// A layout that says it has one row: its offsets are those of a 64 x 32 tile's row 0 for
/// every row, so over its own word (one row) it looks one-to-one.
struct ClaimsOneRow {
  using value_type = float;
  static constexpr int kRows = 1;
  static constexpr int kCols = 32;
  constexpr int operator()(int r, int c) const { return c + 0 * r; }
};

static_assert(kit::is_layout_of<Padded, float, 32, 32>, "Pitched says its shape and type");
static_assert(kit::is_layout_of<XorTile, float, 32, 32>, "a swizzle keeps the shape and type");
static_assert(!kit::is_layout_of<Padded, float, 64, 32>, "another row count");
static_assert(!kit::is_layout_of<Padded, float, 32, 16>, "another column count");
static_assert(!kit::is_layout_of<Padded, short, 32, 32>, "another element type");
static_assert(!kit::is_layout_of<ClaimsOneRow, float, 64, 32>, "one row is not 64");
static_assert(kit::cosize<ClaimsOneRow>() == 32 && kit::cosize<ClaimsOneRow>(64, 32) == 32,
              "cosize over the layout's own word, or over the tile given");
static_assert(kit::cosize<Padded>(2, 32) == 33 + 32, "rows 0 and 1 of the padded tile");

TEST(Layout, FirstCollisionWalksTheTileItIsGiven) {
  EXPECT_FALSE(kit::first_collision(ClaimsOneRow{}, 64 * 32)) << "its own word: one row";
  const auto clash = kit::first_collision(ClaimsOneRow{}, 64, 32, 64 * 32);
  ASSERT_TRUE(clash) << "the 64 x 32 tile the kernel stores through it";
  EXPECT_EQ(clash->a.row, 0);
  EXPECT_EQ(clash->b.row, 1);
  EXPECT_EQ(clash->b.col, 0);
  EXPECT_EQ(clash->offset, 0);
  EXPECT_FALSE(kit::first_collision(Padded{}, 32, 32, kit::cosize<Padded>()));
}

TEST(Layout, WarpAccessWidthsAndInactiveLanes) {
  const kit::WarpAccess pairs = kit::warp_access(
      Plain{},
      [](int lane) {
        return kit::Coord{0, 2 * (lane % 16)};
      },
      2); // float2 reads
  EXPECT_EQ(pairs.width, 8);
  EXPECT_EQ(pairs.address[3], 24u);
  const kit::WarpAccess half = kit::warp_access(Plain{}, [](int lane) -> kit::LaneCoord {
    if (lane >= 16) {
      return std::nullopt;
    }
    return kit::Coord{lane, 0};
  });
  EXPECT_EQ(half.mask, 0xffffu);
  EXPECT_EQ(kit::wavefronts(half), 16);
}

TEST(Layout, PrintLayoutDrawsEachElementsBank) {
  // Rows of 33 floats: row r starts in bank r; halves share a word two by two.
  const std::string padded = kit::print_layout(kit::Pitched<float, 64, 32, 33>{}, 2);
  EXPECT_EQ(padded.substr(0, padded.find('\n')),
            "banks of a 64 x 32 layout, 4-byte elements (rows 0-1 of 64)");
  EXPECT_NE(padded.find("  row  0:  0  1  2"), std::string::npos) << padded;
  EXPECT_NE(padded.find("  row  1:  1  2  3"), std::string::npos) << padded;
  EXPECT_NE(padded.find(" 31  0\n"), std::string::npos) << "row 1 wraps to bank 0\n" << padded;
  EXPECT_EQ(padded.find("row  2"), std::string::npos) << padded;
  const std::string halves = kit::print_layout(kit::Pitched<std::uint16_t, 1, 4>{});
  EXPECT_EQ(halves, "banks of a 1 x 4 layout, 2-byte elements\n  row  0:  0  0  1  1\n");
}

} // namespace
