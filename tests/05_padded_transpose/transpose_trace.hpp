// The shared-memory instructions of transpose_tiled and transpose_padded, built from the
// lesson's own index functions (exercise.hpp), and the kernels' CPU emulation built from the
// same functions.
//
// Per tile, phase 1: warp w stores tile rows y = w, w + kBlockRows, ... below the tile's
// row extent, lanes x below its column extent active, at store_slot(x, y). Phase 2: warp w
// loads tile columns y = w, w + kBlockRows, ... below the column extent, lanes x below the
// row extent active, at load_slot(x, y). A warp never issues an instruction for a tile row
// that does not exist (the kernel's loop bound skips it); lanes past the edge are the
// model's inactive lanes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/trace.hpp"

namespace lesson05::testing {

/// Label of one tile class's instructions, for messages.
inline std::string tile_label(const char* what, int tile_rows, int tile_cols) {
  std::ostringstream s;
  s << what << " (tile " << tile_rows << " x " << tile_cols << ")";
  return s.str();
}

/// Adds the instructions of `tiles` tiles whose extents are tile_rows x tile_cols.
template <int Pitch>
void add_tile(kit::Trace& t, int tile_rows, int tile_cols, std::uint64_t tiles) {
  const std::string store = tile_label("phase 1: tile row store", tile_rows, tile_cols);
  const std::string load = tile_label("phase 2: tile column load", tile_rows, tile_cols);
  for (int w = 0; w < kBlockRows; ++w) {
    for (int y = w; y < tile_rows; y += kBlockRows) {
      t.add(
          kit::SharedOp::store, sizeof(float),
          [&](int x) -> kit::LaneAddress {
            if (x >= tile_cols) {
              return std::nullopt;
            }
            return static_cast<std::uint32_t>(store_slot<Pitch>(x, y)) * sizeof(float);
          },
          tiles, store);
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int y = w; y < tile_cols; y += kBlockRows) {
      t.add(
          kit::SharedOp::load, sizeof(float),
          [&](int x) -> kit::LaneAddress {
            if (x >= tile_rows) {
              return std::nullopt;
            }
            return static_cast<std::uint32_t>(load_slot<Pitch>(x, y)) * sizeof(float);
          },
          tiles, load);
    }
  }
}

/// Every shared-memory instruction of the tile kernel with row pitch `Pitch` on a
/// rows x cols matrix: tiles are grouped by their extents (at most four kinds).
template <int Pitch>
kit::Trace tile_transpose_trace(int rows, int cols) {
  std::map<std::pair<int, int>, std::uint64_t> kinds;
  for (int row0 = 0; row0 < rows; row0 += kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += kTileDim) {
      ++kinds[{tile_extent(row0, rows), tile_extent(col0, cols)}];
    }
  }
  kit::Trace t;
  for (const auto& [extents, count] : kinds) {
    add_tile<Pitch>(t, extents.first, extents.second, count);
  }
  return t.compacted();
}

/// The trace of the kernel transpose_tiled runs.
inline kit::Trace tiled_trace(int rows, int cols) {
  return tile_transpose_trace<kTiledPitch>(rows, cols);
}

/// The trace of the kernel transpose_padded runs.
inline kit::Trace padded_trace(int rows, int cols) {
  return tile_transpose_trace<kPaddedPitch>(rows, cols);
}

/// True when load_slot reads, for every thread, the element that phase 1 stored for the
/// transposed position (output (col0 + y, row0 + x) is input (row0 + x, col0 + y)).
template <int Pitch>
bool load_slot_transposes() {
  for (int x = 0; x < kTileDim; ++x) {
    for (int y = 0; y < kTileDim; ++y) {
      if (load_slot<Pitch>(x, y) != store_slot<Pitch>(y, x)) {
        return false;
      }
    }
  }
  return true;
}

/// Runs the tile kernel with row pitch `Pitch` on the CPU, built from the same functions:
/// every block, phase 1 then phase 2, through a tile of kTileDim * Pitch values. Returns
/// an error message for the first thing the functions get wrong (an element read or written
/// outside the matrix, a slot outside the tile), or nothing when the run completes;
/// `out` holds the result.
template <int Pitch>
std::optional<std::string> emulate_tile_transpose(const std::vector<std::uint32_t>& in,
                                                  std::vector<std::uint32_t>& out, int rows,
                                                  int cols) {
  constexpr int kSlots = kTileDim * Pitch;
  std::vector<std::uint32_t> tile(kSlots);
  auto where = [](int row0, int col0, int x, int y) {
    std::ostringstream s;
    s << " (tile at row " << row0 << ", column " << col0 << "; thread x = " << x << ", y = " << y
      << ")";
    return s.str();
  };
  for (int row0 = 0; row0 < rows; row0 += kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += kTileDim) {
      const int tile_rows = tile_extent(row0, rows);
      const int tile_cols = tile_extent(col0, cols);
      for (int y = 0; y < tile_rows; ++y) {
        for (int x = 0; x < tile_cols; ++x) {
          const int r = row0 + y, c = col0 + x;
          const int slot = store_slot<Pitch>(x, y);
          if (r >= rows || c >= cols) {
            return "phase 1 reads input element (" + std::to_string(r) + ", " + std::to_string(c) +
                   "), outside the " + std::to_string(rows) + " x " + std::to_string(cols) +
                   " matrix" + where(row0, col0, x, y);
          }
          if (slot < 0 || slot >= kSlots) {
            return "phase 1 stores to slot " + std::to_string(slot) + ", outside the tile" +
                   where(row0, col0, x, y);
          }
          tile[static_cast<std::size_t>(slot)] = in[matrix_index(r, c, cols)];
        }
      }
      for (int y = 0; y < tile_cols; ++y) {
        for (int x = 0; x < tile_rows; ++x) {
          const int r = col0 + y, c = row0 + x; // output element (cols x rows matrix)
          const int slot = load_slot<Pitch>(x, y);
          if (r >= cols || c >= rows) {
            return "phase 2 writes output element (" + std::to_string(r) + ", " +
                   std::to_string(c) + "), outside the " + std::to_string(cols) + " x " +
                   std::to_string(rows) + " output" + where(row0, col0, x, y);
          }
          if (slot < 0 || slot >= kSlots) {
            return "phase 2 loads slot " + std::to_string(slot) + ", outside the tile" +
                   where(row0, col0, x, y);
          }
          out[matrix_index(r, c, rows)] = tile[static_cast<std::size_t>(slot)];
        }
      }
    }
  }
  return std::nullopt;
}

} // namespace lesson05::testing
