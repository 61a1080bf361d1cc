/// @file layout.hpp
/// @brief Layouts: where a tile's elements live in shared memory. A layout maps a logical
/// coordinate (row, col) to an offset, counted in elements of its value type.
///
/// Every lesson names its shared-memory arrangement with a layout: the kernel indexes shared
/// memory with it, the trace of the kernel (what the model expects the counters to read) is
/// built from it with warp_access(), and the bank map draws it. One word for one concept:
/// a layout gives an **offset**; offset times the element size is the byte address the bank
/// model sees.
///
/// The kinds, each a small `constexpr` host/device function object:
///   - Pitched<T, Rows, Cols, Pitch>: row-major rows `Pitch` elements apart. Pitch == Cols is
///     the plain tile, Pitch > Cols a padded one.
///   - Swizzle<B, M, S>: the XOR permutation of an offset's bits that CuTe (NVIDIA/cutlass,
///     include/cute/swizzle.hpp) names the same way.
///   - Swizzled<Layout, Swizzles...>: a layout whose offsets go through one swizzle after
///     another.
///
/// Any type with `value_type`, `kRows`, `kCols` and `constexpr int operator()(int row, int col)`
/// is a layout to the functions below: a lesson may write its own. Its kRows, kCols and
/// value_type are only its word: a kernel or a test handed a layout holds it to the tile it
/// really has (is_layout_of, from its own constants) and walks that tile (the functions below
/// that take `rows` and `cols`).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"

namespace kit {

/// A logical coordinate of a tile.
struct Coord {
  int row = 0; ///< Row of the tile.
  int col = 0; ///< Column of the tile.
};

/// A lane's coordinate in one warp instruction, or nothing when the lane sits it out.
using LaneCoord = std::optional<Coord>;

/// Row-major tile of `Rows` x `Cols` elements of `T` whose rows start `Pitch` elements apart.
///
///     Pitch == Cols (plain)                  Pitch == Cols + 1 (padded by one element)
///     row 0: offsets  0  1 ... 31            row 0: offsets  0  1 ... 31  [32]
///     row 1: offsets 32 33 ... 63            row 1: offsets 33 34 ... 64  [65]
template <class T, int Rows, int Cols, int Pitch = Cols>
struct Pitched {
  static_assert(Rows > 0 && Cols > 0, "a tile has at least one row and one column");
  static_assert(Pitch >= Cols, "a row must hold its Cols elements");

  using value_type = T;                ///< The element type: offsets count these.
  static constexpr int kRows = Rows;   ///< Rows of the tile.
  static constexpr int kCols = Cols;   ///< Columns of the tile.
  static constexpr int kPitch = Pitch; ///< Elements from the start of one row to the next.

  /// Offset of element (row, col).
  KIT_HD constexpr int operator()(int row, int col) const { return row * Pitch + col; }
};

/// CuTe's swizzle with its bits given at run time: `Swizzle<B, M, S>{}(o) == swizzle(o, B, M, S)`
/// (bank-map reads B, M and S from its command line).
KIT_HD constexpr std::int64_t swizzle(std::int64_t offset, int bits, int base, int shift) {
  const std::int64_t target = ((std::int64_t{1} << bits) - 1) << base; // ZZZ
  return offset ^ ((offset >> shift) & target); // YYY moved down onto ZZZ: a shift and one LOP3
}

/// CuTe's `Swizzle<B, M, S>`: keeps the low `M` bits of an offset (groups of 2^M elements stay
/// together), and XORs the `B` bits that sit `S` bits higher into the `B` bits above them.
///
///     offset bits:  ... [ B bits: YYY ] ... [ B bits: ZZZ ] [ M bits ]
///                        ^ bit M + S          ^ bit M
///     result:       ... [      YYY    ] ... [  ZZZ ^ YYY  ] [ M bits ]
///
/// A bijection on every aligned block of 2^(M + S + B) offsets. Example: Swizzle<2, 0, 2> on 4
/// rows of 4 (offset 4 r + c) gives 4 r + (c ^ r): row 0 stays, row 1 swaps neighbours, row 2
/// swaps its halves, row 3 is reversed.
template <int B, int M, int S>
struct Swizzle {
  static_assert(B >= 0 && M >= 0, "bit counts are not negative");
  static_assert(S >= B, "the source bits must not overlap the bits they change (S >= B)");

  static constexpr int kBits = B;  ///< Bits XORed.
  static constexpr int kBase = M;  ///< Low bits kept as they are.
  static constexpr int kShift = S; ///< Distance from the source bits down to the changed ones.

  /// The swizzled offset.
  KIT_HD constexpr int operator()(int offset) const {
    return static_cast<int>(swizzle(offset, B, M, S));
  }
};

/// A layout whose offsets pass through `Swizzles` in order: Swizzled<L, S1, S2>(r, c) is
/// S2(S1(L(r, c))). Swizzles permute offsets within aligned blocks, so the swizzled layout
/// spans the same offsets as `Layout` when its span is a whole number of those blocks.
template <class Layout, class... Swizzles>
struct Swizzled {
  using value_type = typename Layout::value_type; ///< The element type.
  static constexpr int kRows = Layout::kRows;     ///< Rows of the tile.
  static constexpr int kCols = Layout::kCols;     ///< Columns of the tile.

  /// Offset of element (row, col).
  KIT_HD constexpr int operator()(int row, int col) const {
    int offset = Layout{}(row, col);
    ((offset = Swizzles{}(offset)), ...);
    return offset;
  }
};

/// True when `Layout` is a layout of a `Rows` x `Cols` tile of `T`: its kRows, kCols and
/// value_type are those. A layout's own word decides what the functions below walk (its kRows x
/// kCols elements) and the byte addresses the bank model sees (offsets times the size of its
/// value_type), so whoever takes a layout it did not write holds it to the tile the kernel has:
///
///     static_assert(kit::is_layout_of<TileLayout, float, kTileRows, kTileDim>,
///                   "TileLayout must be kTileRows x kTileDim floats: it is the tile's layout");
template <class Layout, class T, int Rows, int Cols>
inline constexpr bool is_layout_of =
    std::is_same_v<typename Layout::value_type, T>&& Layout::kRows == Rows&& Layout::kCols == Cols;

/// Elements a shared array needs to hold elements (0, 0) ... (rows - 1, cols - 1) of the layout:
/// the largest of their offsets + 1.
template <class Layout>
KIT_HD constexpr int cosize(int rows, int cols) {
  int largest = -1;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int o = Layout{}(r, c);
      largest = o > largest ? o : largest;
    }
  }
  return largest + 1;
}

/// Elements a shared array needs to hold every element of the layout (its kRows x kCols): the
/// largest offset + 1. `__shared__ float tile[kit::cosize<Layout>()];`
template <class Layout>
KIT_HD constexpr int cosize() {
  return cosize<Layout>(Layout::kRows, Layout::kCols);
}

/// Byte offset of element (row, col): what a bank sees.
template <class Layout>
KIT_HD constexpr std::uint32_t byte_offset(const Layout& layout, int row, int col) {
  return static_cast<std::uint32_t>(layout(row, col)) *
         static_cast<std::uint32_t>(sizeof(typename Layout::value_type));
}

/// Where two elements of a layout collide, if they do.
struct Collision {
  Coord a;    ///< The first element found at `offset`.
  Coord b;    ///< The second one.
  int offset; ///< The shared offset.
};

/// The first pair of elements of the `rows` x `cols` tile (row by row) that share an offset, or
/// nothing when the layout maps that tile one-to-one. Also reports an offset outside
/// [0, capacity) as a collision of an element with itself.
template <class Layout>
std::optional<Collision> first_collision(const Layout& layout, int rows, int cols, int capacity) {
  std::vector<std::optional<Coord>> owner(static_cast<std::size_t>(capacity > 0 ? capacity : 0));
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int o = layout(r, c);
      if (o < 0 || o >= capacity) {
        return Collision{{r, c}, {r, c}, o};
      }
      if (owner[static_cast<std::size_t>(o)]) {
        return Collision{*owner[static_cast<std::size_t>(o)], {r, c}, o};
      }
      owner[static_cast<std::size_t>(o)] = Coord{r, c};
    }
  }
  return std::nullopt;
}

/// first_collision() over the layout's own kRows x kCols elements.
template <class Layout>
std::optional<Collision> first_collision(const Layout& layout, int capacity) {
  return first_collision(layout, Layout::kRows, Layout::kCols, capacity);
}

/// A collision in words, for a test's failure message: "element (r, c) at offset o lies outside
/// <region>" when the offset is outside [0, capacity), else "element (r, c) at offset o shares
/// its offset with element (r', c')".
inline std::string describe(const Collision& c, int capacity, const std::string& region) {
  const std::string where = "element (" + std::to_string(c.b.row) + ", " + std::to_string(c.b.col) +
                            ") at offset " + std::to_string(c.offset);
  if (c.offset < 0 || c.offset >= capacity) {
    return where + " lies outside " + region;
  }
  return where + " shares its offset with element (" + std::to_string(c.a.row) + ", " +
         std::to_string(c.a.col) + ")";
}

/// The banks of a layout as a grid, for a failure message: one line per row (the first `rows`
/// of them), each cell the bank of that element (its byte offset's word, mod 32).
///
///     banks of a 64 x 32 layout, 4-byte elements (rows 0-2 of 64)
///       row  0:  0  1  2  3  4 ... 31
///       row  1:  0  1  2  3  4 ... 31      (a column reads down one of these)
///       row  2:  0  1  2  3  4 ... 31
/// @param layout The layout.
/// @param rows Rows drawn, from row 0 (all of them unless given).
template <class Layout>
std::string print_layout(const Layout& layout, int rows = Layout::kRows) {
  const int shown = std::min(std::max(rows, 0), Layout::kRows);
  const int bytes = static_cast<int>(sizeof(typename Layout::value_type));
  std::string out = "banks of a " + std::to_string(Layout::kRows) + " x " +
                    std::to_string(Layout::kCols) + " layout, " + std::to_string(bytes) +
                    "-byte elements";
  if (shown < Layout::kRows) {
    out += " (rows 0-" + std::to_string(shown - 1) + " of " + std::to_string(Layout::kRows) + ")";
  }
  out += "\n";
  for (int r = 0; r < shown; ++r) {
    char head[24]; // "  row %2d:" of any int
    std::snprintf(head, sizeof head, "  row %2d:", r);
    out += head;
    for (int c = 0; c < Layout::kCols; ++c) {
      char cell[8];
      std::snprintf(cell, sizeof cell, " %2d", bank_of(byte_offset(layout, r, c)));
      out += cell;
    }
    out += "\n";
  }
  return out;
}

/// One warp instruction on a layout: lane l touches the element at `coord_of(l)` (a Coord, or
/// a LaneCoord that is empty for a lane that sits the instruction out) and the
/// `elems_per_lane` - 1 elements after it in offset order, in one access of
/// `elems_per_lane * sizeof(value_type)` bytes (1 for a scalar access, 2 for a float2 of two
/// floats, ...). The result is what the bank model takes.
template <class Layout, class CoordFn>
WarpAccess warp_access(const Layout& layout, CoordFn&& coord_of, int elems_per_lane = 1) {
  WarpAccess a;
  a.width = elems_per_lane * static_cast<int>(sizeof(typename Layout::value_type));
  a.mask = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneCoord c = coord_of(lane);
    if (c) {
      a.mask |= 1u << lane;
      a.address[lane] = byte_offset(layout, c->row, c->col);
    }
  }
  return a;
}

} // namespace kit
