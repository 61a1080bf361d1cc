// The shared-memory instructions of transpose_tiled and transpose_padded, built from the
// lesson's layouts and coordinates (demo.hpp, exercise.hpp), and the kernels' CPU emulation
// built from the same functions (host code: the CPU tests use it).
//
// Per tile, phase 1: warp w stores tile rows y = w, w + kBlockWarps, ... below the tile's
// row extent, lanes x below its column extent active, at store_coord(x, y). Phase 2: warp w
// loads tile columns y = w, w + kBlockWarps, ... below the column extent, lanes x below the
// row extent active, at load_coord(x, y). A warp never issues an instruction for a tile row
// that does not exist (the kernel's loop bound skips it); lanes past the edge are the
// model's inactive lanes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/matrix.hpp"
#include "kit/trace.hpp"

namespace lesson05::testing {

/// Compiles only when `Tile` is a layout of the tile a block moves: kTileDim x kTileDim floats
/// (its kRows, kCols and value_type). The kernel stages every element of it, as floats,
/// whatever a layout says of itself: the traces and the emulation assert this first.
template <class Tile>
constexpr bool holds_the_tile() {
  static_assert(kit::is_layout_of<Tile, float, kTileDim, kTileDim>,
                "PaddedLayout must be kTileDim x kTileDim floats (kRows == kCols == kTileDim, "
                "value_type float): it is the layout of transpose_padded's tile, every row of "
                "it, and the kernel stores floats");
  return true;
}

/// The student's PaddedLayout is the layout of the whole tile, of floats (a compile error names
/// the rule otherwise).
static_assert(holds_the_tile<PaddedLayout>());

/// Adds the instructions of `tiles` tiles whose extents are tile_rows x tile_cols.
template <class Tile>
void add_tile(kit::Trace& t, int tile_rows, int tile_cols, std::uint64_t tiles) {
  static_assert(holds_the_tile<Tile>());
  const std::string size =
      " (tile " + std::to_string(tile_rows) + " x " + std::to_string(tile_cols) + ")";
  for (int w = 0; w < kBlockWarps; ++w) {
    for (int y = w; y < tile_rows; y += kBlockWarps) {
      const auto stored = [&](int x) -> kit::LaneCoord {
        return x < tile_cols ? kit::LaneCoord(store_coord(x, y)) : std::nullopt;
      };
      t.add(kit::SharedOp::store, kit::warp_access(Tile{}, stored), tiles,
            "phase 1: tile row store" + size);
    }
    for (int y = w; y < tile_cols; y += kBlockWarps) {
      const auto loaded = [&](int x) -> kit::LaneCoord {
        return x < tile_rows ? kit::LaneCoord(load_coord(x, y)) : std::nullopt;
      };
      t.add(kit::SharedOp::load, kit::warp_access(Tile{}, loaded), tiles,
            "phase 2: tile column load" + size);
    }
  }
}

/// Every shared-memory instruction of transpose_tile_kernel<Tile> on a rows x cols matrix:
/// tiles are grouped by their extents (at most four kinds).
template <class Tile>
kit::Trace tile_transpose_trace(int rows, int cols) {
  std::map<std::pair<int, int>, std::uint64_t> kinds;
  for (int row0 = 0; row0 < rows; row0 += kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += kTileDim) {
      ++kinds[{tile_extent(row0, rows), tile_extent(col0, cols)}];
    }
  }
  kit::Trace t;
  for (const auto& [extents, count] : kinds) {
    add_tile<Tile>(t, extents.first, extents.second, count);
  }
  return t.compacted();
}

/// The trace of the kernel transpose_tiled runs.
inline kit::Trace tiled_trace(int rows, int cols) {
  return tile_transpose_trace<TiledLayout>(rows, cols);
}

/// The trace of the kernel transpose_padded runs.
inline kit::Trace padded_trace(int rows, int cols) {
  return tile_transpose_trace<PaddedLayout>(rows, cols);
}

/// The shapes the GPU counter tests launch transpose_tiled and transpose_padded on: full tiles,
/// one element, ragged tiles both ways, a large ragged matrix, one row, one column. Where the
/// grader finds the counters refused, their counts come from the CPU run of the same launches,
/// which the lesson's CpuRecording test holds to the counters shape for shape.
inline std::vector<std::pair<int, int>> counter_shapes() {
  return {{256, 256}, {1, 1}, {31, 33}, {33, 31}, {1000, 777}, {1, 100}, {100, 1}};
}

/// True when a and b are the same tile element.
inline bool same_element(kit::Coord a, kit::Coord b) {
  return a.row == b.row && a.col == b.col;
}

/// Who wrote an output element in the emulation: thread (x, y) of the tile at (row0, col0), in
/// phase 2, from tile element `from` (load_coord(x, y)); x < 0 for an element no thread wrote.
struct EmulatedWrite {
  int x = -1, y = -1;  ///< The thread.
  int row0 = 0;        ///< The tile's first input row...
  int col0 = 0;        ///< ... and column.
  kit::Coord from{};   ///< The tile element it read.
  bool staged = false; ///< Whether phase 1 had put a value there.
};

/// "phase 2 of the tile at row 0, column 32: thread (x = 1, y = 0) wrote it from
/// load_coord(1, 0) = tile element (0, 1)", for a message that names where a value came from.
inline std::string describe(const EmulatedWrite& w) {
  if (w.x < 0) {
    return "";
  }
  std::ostringstream s;
  s << "phase 2 of the tile at row " << w.row0 << ", column " << w.col0 << ": thread (x = " << w.x
    << ", y = " << w.y << ") wrote it from load_coord(" << w.x << ", " << w.y
    << ") = tile element (" << w.from.row << ", " << w.from.col << ")"
    << (w.staged ? "" : ", which phase 1 did not fill");
  return s.str();
}

/// Runs transpose_tile_kernel<Tile> on the CPU, built from the same functions: every block,
/// phase 1 then phase 2, through a tile of kit::cosize<Tile>(kTileDim, kTileDim) values. Returns an
/// error message for the first thing the functions get wrong (an element read or written outside
/// the matrix, a coordinate outside the tile), or nothing when the run completes; `out` holds
/// the result, and `writes` (when given) who wrote each of its elements.
template <class Tile>
std::optional<std::string>
emulate_tile_transpose(const std::vector<std::uint32_t>& in, std::vector<std::uint32_t>& out,
                       int rows, int cols, std::vector<EmulatedWrite>* writes = nullptr) {
  static_assert(holds_the_tile<Tile>());
  std::vector<std::uint32_t> tile(static_cast<std::size_t>(kit::cosize<Tile>(kTileDim, kTileDim)));
  std::vector<bool> staged(tile.size());
  if (writes != nullptr) {
    writes->assign(out.size(), EmulatedWrite{});
  }
  const auto outside = [](kit::Coord e) {
    return e.row < 0 || e.row >= kTileDim || e.col < 0 || e.col >= kTileDim;
  };
  const auto where = [](const char* what, kit::Coord e, int row0, int col0, int x, int y) {
    std::ostringstream s;
    s << what << " tile element (" << e.row << ", " << e.col << "), outside the " << kTileDim
      << " x " << kTileDim << " tile (tile at row " << row0 << ", column " << col0
      << "; thread x = " << x << ", y = " << y << ")";
    return s.str();
  };
  for (int row0 = 0; row0 < rows; row0 += kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += kTileDim) {
      std::fill(staged.begin(), staged.end(), false); // a new block: its tile not yet filled
      const int tile_rows = tile_extent(row0, rows);
      const int tile_cols = tile_extent(col0, cols);
      for (int y = 0; y < tile_rows; ++y) {
        for (int x = 0; x < tile_cols; ++x) {
          const int r = row0 + y, c = col0 + x;
          const kit::Coord e = store_coord(x, y);
          if (r >= rows || c >= cols) {
            return "phase 1 reads input element (" + std::to_string(r) + ", " + std::to_string(c) +
                   "), outside the " + std::to_string(rows) + " x " + std::to_string(cols) +
                   " matrix (tile_extent)";
          }
          if (outside(e)) {
            return where("phase 1 stores to", e, row0, col0, x, y);
          }
          const auto slot = static_cast<std::size_t>(Tile{}(e.row, e.col));
          tile[slot] = in[kit::matrix_index(r, c, cols)];
          staged[slot] = true;
        }
      }
      for (int y = 0; y < tile_cols; ++y) {
        for (int x = 0; x < tile_rows; ++x) {
          const int r = col0 + y, c = row0 + x; // output element (cols x rows matrix)
          const kit::Coord e = load_coord(x, y);
          if (r >= cols || c >= rows) {
            return "phase 2 writes output element (" + std::to_string(r) + ", " +
                   std::to_string(c) + "), outside the " + std::to_string(cols) + " x " +
                   std::to_string(rows) + " output (tile_extent)";
          }
          if (outside(e)) {
            return where("phase 2 loads", e, row0, col0, x, y);
          }
          const auto slot = static_cast<std::size_t>(Tile{}(e.row, e.col));
          out[kit::matrix_index(r, c, rows)] = tile[slot];
          if (writes != nullptr) {
            (*writes)[kit::matrix_index(r, c, rows)] = {x, y, row0, col0, e, staged[slot]};
          }
        }
      }
    }
  }
  return std::nullopt;
}

} // namespace lesson05::testing
