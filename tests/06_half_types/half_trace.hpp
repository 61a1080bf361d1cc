// The shared-memory instructions of transpose_half and transpose_half2, built from the tile
// layout (exercise.hpp's HalfTileLayout) and the kernels' geometry (demo.hpp), and a CPU run
// of the pair path. Host code: the CPU tests use it too.
//
// transpose_half, per tile: phase 1, warp w stores tile rows y = w, w + kBlockRows, ...
// below the tile's row extent, lanes x below its column extent, element (y, x); phase 2,
// warp w loads tile columns y below the column extent, lanes x below the row extent,
// element (x, y). Warps never issue an instruction for a tile row that does not exist;
// lanes past the edge are inactive. One half per access.
//
// transpose_half2, per tile that !moves_by_halves(): phase 1, every warp stores two pairs per
// lane, elements (2 j, 2 i) and (2 j + 1, 2 i); phase 2, every warp loads kPairSteps pairs
// per lane, element (out_row, 2 out_pair). A pair is the element and the one after it, one
// 4-byte access. Other tiles as transpose_half.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/matrix.hpp"
#include "kit/trace.hpp"

namespace lesson06::testing {

/// The student's HalfTileLayout is the layout of the whole tile, of halves (a compile error
/// names the rule otherwise).
static_assert(holds_the_tile<HalfTileLayout>());

/// Halves in one pair access.
inline constexpr int kPairHalves = 2;

/// Element (r, c), or nothing for a lane past the tile's edge.
inline kit::LaneCoord inside(bool in_tile, int r, int c) {
  return in_tile ? kit::LaneCoord{kit::Coord{r, c}} : kit::LaneCoord{};
}

/// Label of one tile kind's instructions, for messages.
inline std::string tile_label(const char* what, int tile_rows, int tile_cols) {
  std::ostringstream s;
  s << what << " (tile " << tile_rows << " x " << tile_cols << ")";
  return s.str();
}

/// Adds the instructions of `tiles` tiles of extents tile_rows x tile_cols, moved one half
/// per access.
inline void add_half_tile(kit::Trace& t, int tile_rows, int tile_cols, std::uint64_t tiles) {
  constexpr HalfTileLayout tile{};
  const std::string store = tile_label("half row store", tile_rows, tile_cols);
  const std::string load = tile_label("half column load", tile_rows, tile_cols);
  for (int w = 0; w < kBlockRows; ++w) {
    for (int y = w; y < tile_rows; y += kBlockRows) {
      t.add(kit::SharedOp::store,
            kit::warp_access(tile, [&](int x) { return inside(x < tile_cols, y, x); }), tiles,
            store);
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int y = w; y < tile_cols; y += kBlockRows) {
      t.add(kit::SharedOp::load,
            kit::warp_access(tile, [&](int x) { return inside(x < tile_rows, x, y); }), tiles,
            load);
    }
  }
}

/// Adds the instructions of `tiles` full tiles moved in pairs.
inline void add_pair_tile(kit::Trace& t, std::uint64_t tiles) {
  constexpr HalfTileLayout tile{};
  for (int w = 0; w < kBlockRows; ++w) {
    for (int odd = 0; odd < 2; ++odd) { // the column-2j store, then the column-2j+1 store
      const auto block_column = [&](int lane) {
        return kit::Coord{2 * block_col_pair(lane) + odd, 2 * block_row_pair(w, lane)};
      };
      t.add(kit::SharedOp::store, kit::warp_access(tile, block_column, kPairHalves), tiles,
            odd ? "pair store, column 2j + 1" : "pair store, column 2j");
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int k = 0; k < kPairSteps; ++k) {
      const auto output_pair = [&](int lane) {
        return kit::Coord{out_row(w, k, lane), 2 * out_pair(lane)};
      };
      t.add(kit::SharedOp::load, kit::warp_access(tile, output_pair, kPairHalves), tiles,
            "pair load, output rows");
    }
  }
}

/// Every shared-memory instruction of transpose_half (`pairs` false) or transpose_half2
/// (`pairs` true) on a rows x cols matrix, entry by entry (each with the lane offsets it stands
/// for: what the CPU run of the kernel is compared with).
inline kit::Trace transpose_trace_entries(int rows, int cols, bool pairs) {
  std::map<std::pair<int, int>, std::uint64_t> half_tiles; // tiles counted by their extents
  std::uint64_t pair_tiles = 0;
  for (int row0 = 0; row0 < rows; row0 += kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += kTileDim) {
      if (pairs && !moves_by_halves(rows, cols, row0, col0)) {
        ++pair_tiles;
      } else {
        ++half_tiles[{tile_extent(row0, rows), tile_extent(col0, cols)}];
      }
    }
  }
  kit::Trace t;
  add_pair_tile(t, pair_tiles);
  for (const auto& [extents, count] : half_tiles) {
    add_half_tile(t, extents.first, extents.second, count);
  }
  return t;
}

/// Every shared-memory instruction of transpose_half (`pairs` false) or transpose_half2
/// (`pairs` true) on a rows x cols matrix.
inline kit::Trace transpose_trace(int rows, int cols, bool pairs) {
  return transpose_trace_entries(rows, cols, pairs).compacted();
}

/// Every shared-memory instruction of transpose_half on a rows x cols matrix.
inline kit::Trace half_trace(int rows, int cols) {
  return transpose_trace(rows, cols, false);
}

/// Every shared-memory instruction of transpose_half2 on a rows x cols matrix.
inline kit::Trace half2_trace(int rows, int cols) {
  return transpose_trace(rows, cols, true);
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
      s << e.what << ": lane " << r.error_lane << " accesses byte " << byte << " (offset "
        << byte / kHalfBytes
        << ") with a 4-byte access: not a multiple of 4. With kHalfPitch = " << kHalfPitch
        << ", tile row r starts at offset " << kHalfPitch
        << " r, which is odd for every odd row: on the GPU this access is a fault (misaligned "
           "address), not a slowdown";
      return s.str();
    }
  }
  return std::nullopt;
}

/// Why the transposes would lose data with your HalfTileLayout, or nothing: two tile elements
/// at one offset (or one at a negative offset), or a tile larger than a block's static shared
/// memory (then they cannot run).
inline std::optional<std::string> tile_loss() {
  constexpr int kStaticSharedLimit = 48 * 1024; // bytes of __shared__ a block may declare
  const int halves = kit::cosize<HalfTileLayout>(kTileDim, kTileDim);
  if (const auto clash = kit::first_collision(HalfTileLayout{}, kTileDim, kTileDim, halves)) {
    return "HalfTileLayout: " + kit::describe(*clash, halves, "the tile") +
           ": the transposes would lose data (every tile element needs an offset of its own)";
  }
  if (halves * kHalfBytes > kStaticSharedLimit) {
    return "HalfTileLayout spans " + std::to_string(halves * kHalfBytes) +
           " bytes, more than the " + std::to_string(kStaticSharedLimit) +
           " bytes of __shared__ a block may declare: the transposes cannot run";
  }
  return std::nullopt;
}

/// Runs the pair path of one full tile on the CPU with the lesson's layout and geometry: `in`
/// is a kTileDim x kTileDim tile of 16-bit values, the result is its transpose.
inline std::vector<std::uint16_t> emulate_pair_tile(const std::vector<std::uint16_t>& in) {
  constexpr HalfTileLayout layout{};
  std::vector<std::uint16_t> tile(
      static_cast<std::size_t>(kit::cosize<HalfTileLayout>(kTileDim, kTileDim)), 0);
  std::vector<std::uint16_t> out(in.size(), 0xffff);
  const auto at = [&](int r, int c) { return in[kit::matrix_index(r, c, kTileDim)]; };
  const auto offset = [&](int r, int c) { return static_cast<std::size_t>(layout(r, c)); };
  for (int w = 0; w < kBlockRows; ++w) {
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      const int i = block_row_pair(w, lane), j = block_col_pair(lane);
      // (a b / c d) -> column 2j, (a, c), at element (2j, 2i); (b, d) at (2j + 1, 2i)
      const std::size_t s0 = offset(2 * j, 2 * i), s1 = offset(2 * j + 1, 2 * i);
      tile[s0] = at(2 * i, 2 * j);
      tile[s0 + 1] = at(2 * i + 1, 2 * j);
      tile[s1] = at(2 * i, 2 * j + 1);
      tile[s1 + 1] = at(2 * i + 1, 2 * j + 1);
    }
  }
  for (int w = 0; w < kBlockRows; ++w) {
    for (int k = 0; k < kPairSteps; ++k) {
      for (int lane = 0; lane < kit::kWarpSize; ++lane) {
        const int c = out_row(w, k, lane), p = out_pair(lane);
        const std::size_t s = offset(c, 2 * p);
        out[kit::matrix_index(c, 2 * p, kTileDim)] = tile[s];
        out[kit::matrix_index(c, 2 * p + 1, kTileDim)] = tile[s + 1];
      }
    }
  }
  return out;
}

} // namespace lesson06::testing
