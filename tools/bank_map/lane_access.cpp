#include "lane_access.hpp"

#include <climits>
#include <cstdint>
#include <string>

#include "kit/layout.hpp"
#include "options.hpp"

namespace bank_map {
namespace {

/// Offset of element (row, col) of `tile` before any swizzle.
constexpr std::int64_t pitched(const TileShape& tile, std::int64_t row, std::int64_t col) {
  return row * tile.pitch + col; // (row, col) -> row * pitch + col
}

std::int64_t swizzled(std::int64_t offset, const std::vector<SwizzleBits>& swizzles) {
  for (const SwizzleBits& s : swizzles) {
    offset = s(offset);
  }
  return offset;
}

/// An element type of `Bytes` bytes: what the tile's offsets count.
template <int Bytes>
struct Element {
  unsigned char bytes[Bytes]; ///< The element's storage.
};

/// kit::Swizzled<kit::Pitched<T, rows, pitch>, swizzles...> with its shape read at run time.
template <class T>
struct RuntimeTile {
  using value_type = T;                       ///< Offsets count these.
  TileShape shape;                            ///< Rows and pitch.
  const std::vector<SwizzleBits>* swizzles{}; ///< Applied in order.

  /// Offset of element (row, col). Below 2^31: parse_tile and kMaxSwizzleSpan see to it.
  int operator()(int row, int col) const {
    return static_cast<int>(swizzled(pitched(shape, row, col), *swizzles));
  }
};

/// kit::warp_access on `tile` for `coord_of`, with an element type of `width` bytes.
template <class CoordFn>
kit::WarpAccess tile_request(const TileShape& tile, const std::vector<SwizzleBits>& swizzles,
                             int width, CoordFn coord_of) {
  switch (width) {
  case 1:
    return kit::warp_access(RuntimeTile<Element<1>>{tile, &swizzles}, coord_of);
  case 2:
    return kit::warp_access(RuntimeTile<Element<2>>{tile, &swizzles}, coord_of);
  case 4:
    return kit::warp_access(RuntimeTile<Element<4>>{tile, &swizzles}, coord_of);
  case 8:
    return kit::warp_access(RuntimeTile<Element<8>>{tile, &swizzles}, coord_of);
  case 16:
    return kit::warp_access(RuntimeTile<Element<16>>{tile, &swizzles}, coord_of);
  default:
    throw UsageError("unknown width " + std::to_string(width));
  }
}

/// "lane 3: index 7 puts the byte offset beyond 32 bits (...)", or "" when it fits.
std::string beyond_32_bits(int lane, const char* noun, std::int64_t offset, int width) {
  const std::int64_t limit = std::int64_t{UINT32_MAX} / width;
  if (offset <= limit) {
    return "";
  }
  const std::string bytes = offset > INT64_MAX / width ? "more than " + std::to_string(INT64_MAX)
                                                       : std::to_string(offset * width);
  return "lane " + std::to_string(lane) + ": " + noun + " " + std::to_string(offset) +
         " puts the byte offset beyond 32 bits (" + bytes + ")";
}

/// True when `s` is one or more decimal digits.
bool is_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

} // namespace

SwizzleBits parse_swizzle(const std::string& text) {
  constexpr std::size_t kMaxDigits = 2; // every count up to kMaxSwizzleSpan
  const std::size_t first = text.find(','), second = text.find(',', first + 1);
  std::string part[3];
  if (first != std::string::npos && second != std::string::npos) {
    part[0] = text.substr(0, first);
    part[1] = text.substr(first + 1, second - first - 1);
    part[2] = text.substr(second + 1);
  }
  for (const std::string& p : part) {
    if (!is_digits(p) || p.size() > kMaxDigits) {
      throw UsageError("--swizzle: '" + text + "' is not B,M,S (e.g. 3,0,3)");
    }
  }
  const int b = std::stoi(part[0]), m = std::stoi(part[1]), s = std::stoi(part[2]);
  if (s < b) {
    throw UsageError("--swizzle: '" + text +
                     "': the source bits must not overlap the bits they change (S >= B)");
  }
  if (b + m + s > kMaxSwizzleSpan) {
    throw UsageError("--swizzle: '" + text + "': B + M + S is at most " +
                     std::to_string(kMaxSwizzleSpan));
  }
  return SwizzleBits{b, m, s};
}

TileShape parse_tile(const std::string& text) {
  constexpr std::size_t kMaxDigits = 10; // as many as INT_MAX has
  const std::size_t x = text.find('x');
  const std::string rows_text = text.substr(0, x);
  const std::string pitch_text = x == std::string::npos ? "" : text.substr(x + 1);
  if (!is_digits(rows_text) || !is_digits(pitch_text)) {
    throw UsageError("--layout: '" + text + "' is not ROWSxPITCH (e.g. 32x33)");
  }
  const std::string too_large =
      "--layout: '" + text + "' is too large (at most " + std::to_string(INT_MAX) + " elements)";
  if (rows_text.size() > kMaxDigits || pitch_text.size() > kMaxDigits) {
    throw UsageError(too_large);
  }
  const std::int64_t rows = std::stoll(rows_text), pitch = std::stoll(pitch_text);
  if (rows == 0 || pitch == 0) {
    throw UsageError("--layout: a tile has at least one row and one element per row");
  }
  if (rows * pitch > INT_MAX) {
    throw UsageError(too_large);
  }
  return TileShape{static_cast<int>(rows), static_cast<int>(pitch)};
}

kit::WarpAccess index_access(const Expression& index, const std::vector<SwizzleBits>& swizzles,
                             int width, std::uint32_t mask) {
  std::int64_t value[kit::kWarpSize] = {};
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    if ((mask >> lane) & 1u) {
      value[lane] = index.at(lane);
    }
  }
  kit::WarpAccess a;
  a.width = width;
  a.mask = mask;
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    if (!a.active(lane)) {
      continue;
    }
    if (value[lane] < 0) {
      throw ExpressionError("lane " + std::to_string(lane) + ": index " +
                            std::to_string(value[lane]) + " is negative");
    }
    // A swizzle changes only bits below 2^kMaxSwizzleSpan: it keeps the offset non-negative,
    // and below 2^k whenever the index is (every width's 32-bit limit is a 2^k - 1).
    const std::int64_t offset = swizzled(value[lane], swizzles);
    const std::string beyond = beyond_32_bits(lane, "index", offset, width);
    if (!beyond.empty()) {
      throw ExpressionError(beyond);
    }
    a.address[lane] = static_cast<std::uint32_t>(offset * width);
  }
  return a;
}

kit::WarpAccess tile_access(const TileShape& tile, const TileLine& line,
                            const std::vector<SwizzleBits>& swizzles, int width,
                            std::uint32_t mask) {
  // Along a column lane l is row l; along a row it is column l.
  const std::int64_t fixed_limit = line.column ? tile.pitch : tile.rows;
  const int lane_limit = line.column ? tile.rows : tile.pitch;
  const char* fixed_noun = line.column ? "column" : "row";
  const char* lane_noun = line.column ? "row" : "column";
  const auto range = [](const char* noun, std::int64_t limit) {
    return std::to_string(limit) + " " + noun + "s (0-" + std::to_string(limit - 1) + ")";
  };
  if (line.index >= fixed_limit) {
    throw UsageError(std::string("--") + fixed_noun + ": " + fixed_noun + " " +
                     std::to_string(line.index) + " is outside the " +
                     range(fixed_noun, fixed_limit));
  }
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    if (!((mask >> lane) & 1u)) {
      continue;
    }
    if (lane >= lane_limit) {
      throw UsageError("lane " + std::to_string(lane) + " reads " + lane_noun + " " +
                       std::to_string(lane) + ", outside the " + range(lane_noun, lane_limit) +
                       ": --mask it out");
    }
    const std::int64_t row = line.column ? lane : line.index;
    const std::int64_t col = line.column ? line.index : lane;
    const std::int64_t offset = swizzled(pitched(tile, row, col), swizzles);
    const std::string beyond = beyond_32_bits(lane, "offset", offset, width);
    if (!beyond.empty()) {
      throw UsageError(beyond);
    }
  }
  return tile_request(tile, swizzles, width, [&](int lane) -> kit::LaneCoord {
    if (!((mask >> lane) & 1u)) {
      return std::nullopt;
    }
    const int fixed = static_cast<int>(line.index); // below the tile's limit, checked above
    return line.column ? kit::Coord{lane, fixed} : kit::Coord{fixed, lane};
  });
}

} // namespace bank_map
