// The shared-memory instructions of transpose_half and transpose_half2, built from the
// lesson's own geometry (exercise.hpp), and a CPU run of the pair path.
//
// transpose_half, per tile: phase 1, warp w stores tile rows y = w, w + kBlockRows, ...
// below the tile's row extent, lanes x below its column extent, 2 bytes at half_slot(y, x);
// phase 2, warp w loads tile columns y below the column extent, lanes x below the row
// extent, 2 bytes at half_slot(x, y). Warps never issue an instruction for a tile row that
// does not exist; lanes past the edge are inactive.
//
// transpose_half2, per full tile when pairs_fit: phase 1, every warp stores two pairs (4
// bytes) per lane at pair_slot(2 j, i) and pair_slot(2 j + 1, i); phase 2, every warp loads
// kPairSteps pairs per lane at pair_slot(out_row, out_pair). Other tiles as transpose_half.
#pragma once

#include <cstdint>
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

namespace lesson06::testing {

/// Bytes of one half.
inline constexpr std::uint32_t kHalfBytes = 2;
/// Bytes of one pair of halves.
inline constexpr int kPairBytes = 4;

/// Label of one tile kind's instructions, for messages.
inline std::string tile_label(const char* what, int tile_rows, int tile_cols) {
  std::ostringstream s;
  s << what << " (tile " << tile_rows << " x " << tile_cols << ")";
  return s.str();
}

/// Adds the instructions of `tiles` tiles of extents tile_rows x tile_cols, moved one half
/// per access.
inline void add_half_tile(kit::Trace& t, int tile_rows, int tile_cols, std::uint64_t tiles) {
  const std::string store = tile_label("half row store", tile_rows, tile_cols);
  const std::string load = tile_label("half column load", tile_rows, tile_cols);
  for (int w = 0; w < kBlockRows; ++w) {
    for (int y = w; y < tile_rows; y += kBlockRows) {
      t.add(
          kit::SharedOp::store, sizeof(__half),
          [&](int x) -> kit::LaneAddress {
            if (x >= tile_cols) {
              return std::nullopt;
            }
            return static_cast<std::uint32_t>(half_slot(y, x)) * kHalfBytes;
          },
          tiles, store);
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int y = w; y < tile_cols; y += kBlockRows) {
      t.add(
          kit::SharedOp::load, sizeof(__half),
          [&](int x) -> kit::LaneAddress {
            if (x >= tile_rows) {
              return std::nullopt;
            }
            return static_cast<std::uint32_t>(half_slot(x, y)) * kHalfBytes;
          },
          tiles, load);
    }
  }
}

/// Adds the instructions of `tiles` full tiles moved in pairs.
inline void add_pair_tile(kit::Trace& t, std::uint64_t tiles) {
  for (int w = 0; w < kBlockRows; ++w) {
    for (int odd = 0; odd < 2; ++odd) { // the column-2j store, then the column-2j+1 store
      t.add(
          kit::SharedOp::store, kPairBytes,
          [&](int lane) -> kit::LaneAddress {
            const int i = block_row_pair(w, lane), j = block_col_pair(lane);
            return static_cast<std::uint32_t>(pair_slot(2 * j + odd, i)) * kHalfBytes;
          },
          tiles, odd ? "pair store, column 2j + 1" : "pair store, column 2j");
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int k = 0; k < kPairSteps; ++k) {
      t.add(
          kit::SharedOp::load, kPairBytes,
          [&](int lane) -> kit::LaneAddress {
            return static_cast<std::uint32_t>(pair_slot(out_row(w, k, lane), out_pair(lane))) *
                   kHalfBytes;
          },
          tiles, "pair load, output rows");
    }
  }
}

/// Tiles of a rows x cols matrix, counted by their extents.
inline std::map<std::pair<int, int>, std::uint64_t> tile_kinds(int rows, int cols) {
  std::map<std::pair<int, int>, std::uint64_t> kinds;
  for (int row0 = 0; row0 < rows; row0 += kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += kTileDim) {
      ++kinds[{tile_extent(row0, rows), tile_extent(col0, cols)}];
    }
  }
  return kinds;
}

/// Every shared-memory instruction of transpose_half on a rows x cols matrix.
inline kit::Trace half_trace(int rows, int cols) {
  kit::Trace t;
  for (const auto& [extents, count] : tile_kinds(rows, cols)) {
    add_half_tile(t, extents.first, extents.second, count);
  }
  return t.compacted();
}

/// Every shared-memory instruction of transpose_half2 on a rows x cols matrix.
inline kit::Trace half2_trace(int rows, int cols) {
  kit::Trace t;
  for (const auto& [extents, count] : tile_kinds(rows, cols)) {
    if (extents.first == kTileDim && extents.second == kTileDim && pairs_fit(rows, cols)) {
      add_pair_tile(t, count);
    } else {
      add_half_tile(t, extents.first, extents.second, count);
    }
  }
  return t.compacted();
}

/// The instructions of one full tile moved in pairs.
inline kit::Trace pair_tile_trace() {
  kit::Trace t;
  add_pair_tile(t, 1);
  return t;
}

/// The first pair access whose address is not a multiple of 4 bytes, described, or nothing.
/// A misaligned shared access faults on the GPU (and the CUDA context is lost with it), so
/// the GPU tests check this before they launch transpose_half2.
inline std::optional<std::string> pair_misalignment() {
  const kit::Trace trace = pair_tile_trace();
  for (const kit::TraceEntry& e : trace.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    if (r.error == kit::ModelError::misaligned) {
      const std::uint32_t byte = e.access.address[r.error_lane];
      std::ostringstream s;
      s << e.what << ": lane " << r.error_lane << " accesses byte " << byte << " (half "
        << byte / kHalfBytes
        << ") with a 4-byte access: not a multiple of 4. With kHalfPitch = " << kHalfPitch
        << ", tile row c starts at half " << kHalfPitch
        << " c, which is odd for every odd row: on the GPU this access is a fault (misaligned "
           "address), not a slowdown";
      return s.str();
    }
  }
  return std::nullopt;
}

/// Runs the pair path of one full tile on the CPU with the lesson's geometry: `in` is a
/// kTileDim x kTileDim tile of 16-bit values, the result is its transpose.
inline std::vector<std::uint16_t> emulate_pair_tile(const std::vector<std::uint16_t>& in) {
  std::vector<std::uint16_t> tile(static_cast<std::size_t>(kTileDim * kHalfPitch), 0);
  std::vector<std::uint16_t> out(in.size(), 0xffff);
  auto at = [&](int r, int c) { return in[matrix_index(r, c, kTileDim)]; };
  for (int w = 0; w < kBlockRows; ++w) {
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      const int i = block_row_pair(w, lane), j = block_col_pair(lane);
      // (a b / c d) -> column 2j = (a, c), column 2j + 1 = (b, d)
      const int s0 = pair_slot(2 * j, i), s1 = pair_slot(2 * j + 1, i);
      tile[static_cast<std::size_t>(s0)] = at(2 * i, 2 * j);
      tile[static_cast<std::size_t>(s0) + 1] = at(2 * i + 1, 2 * j);
      tile[static_cast<std::size_t>(s1)] = at(2 * i, 2 * j + 1);
      tile[static_cast<std::size_t>(s1) + 1] = at(2 * i + 1, 2 * j + 1);
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int k = 0; k < kPairSteps; ++k) {
      for (int lane = 0; lane < kit::kWarpSize; ++lane) {
        const int c = out_row(w, k, lane), p = out_pair(lane);
        const int s = pair_slot(c, p);
        out[matrix_index(c, 2 * p, kTileDim)] = tile[static_cast<std::size_t>(s)];
        out[matrix_index(c, 2 * p + 1, kTileDim)] = tile[static_cast<std::size_t>(s) + 1];
      }
    }
  }
  return out;
}

} // namespace lesson06::testing
