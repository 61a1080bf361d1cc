/// @file tools/bank_map/lane_access.hpp
/// @brief Which element each lane touches, from the command line: an `--index` expression in
/// the lane, or a column or row of a tile layout (`--layout`), with XOR swizzles (`--swizzle`)
/// on the element offset. The layouts are the kit's (kit/layout.hpp): kit::Pitched and
/// kit::Swizzle with their parameters read at run time, and kit::warp_access builds the request.
///
///     --layout 32x33 --column 1       lane l -> element (l, 1) -> offset 33 l + 1
///     --layout 32x33 --row 2          lane l -> element (2, l) -> offset 66 + l
///     --swizzle 1,0,5                 offset o -> o ^ ((o >> 5) & 1)    (kit::Swizzle<1, 0, 5>)
///
/// An offset counts elements; offset * width is the byte offset the bank model sees, so an
/// access built here is always aligned to its width.
#pragma once

#include <cstdint>

#include "kit/layout.hpp"
#include <string>
#include <vector>

#include "expression.hpp"
#include "kit/bank_model.hpp"

namespace bank_map {

/// kit::Swizzle<B, M, S> with B, M and S chosen at run time (lane_access.cpp checks the two
/// agree): the `bits` bits at `base + shift` are XORed into the `bits` bits at `base`.
struct SwizzleBits {
  int bits = 0;  ///< B: bits XORed.
  int base = 0;  ///< M: low bits kept as they are.
  int shift = 0; ///< S: distance from the source bits down to the changed ones.

  /// The swizzled offset: kit::Swizzle<bits, base, shift>.
  constexpr std::int64_t operator()(std::int64_t offset) const {
    return kit::swizzle(offset, bits, base, shift);
  }
};

/// Largest B + M + S: the bits a swizzle reads and writes stay inside an `int` offset.
inline constexpr int kMaxSwizzleSpan = 30;

/// A row-major tile of `rows` rows whose rows start `pitch` elements apart: kit::Pitched with
/// Cols == Pitch (every element of a row, padding included, is a column).
struct TileShape {
  int rows = 0;  ///< Rows of the tile.
  int pitch = 0; ///< Elements from the start of one row to the next.
};

/// Which element of the tile lane l touches.
struct TileLine {
  bool column = true;     ///< true: element (l, index); false: element (index, l).
  std::int64_t index = 0; ///< The column (or the row).
};

/// Parses "B,M,S" (`--swizzle`). Throws UsageError.
SwizzleBits parse_swizzle(const std::string& text);

/// Parses "ROWSxPITCH" (`--layout`), at most INT_MAX elements. Throws UsageError.
TileShape parse_tile(const std::string& text);

/// Lane l of `mask` touches element `index.at(l)`, through `swizzles` in order, `width` bytes.
/// Throws ExpressionError when the expression cannot be evaluated for an active lane, or gives
/// a lane a negative index or a byte offset beyond 32 bits.
kit::WarpAccess index_access(const Expression& index, const std::vector<SwizzleBits>& swizzles,
                             int width, std::uint32_t mask);

/// Lane l of `mask` touches its element of `line` in `tile`, through `swizzles` in order,
/// `width` bytes. Throws UsageError for a line outside the tile, a lane outside it, or a byte
/// offset beyond 32 bits.
kit::WarpAccess tile_access(const TileShape& tile, const TileLine& line,
                            const std::vector<SwizzleBits>& swizzles, int width,
                            std::uint32_t mask);

} // namespace bank_map
