// The shared-memory instructions of the variants (variants.hpp), built from the layouts and
// coordinates their kernels use (variant_layouts.hpp), tile by tile, ragged edges included
// (host code: the CPU tests use it).
//
// One entry per distinct warp instruction of a tile, with how many tiles of that shape the
// matrix has. A warp never issues an instruction for a tile row it skips (the kernels'
// loop bounds); lanes past the edge are the model's inactive lanes. The persistent and
// banded kernels move the same tiles with the same instructions as the one-tile-per-block
// kernel: only the order differs, and a trace has none.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "kit/trace.hpp"
#include "variant_layouts.hpp"

namespace transpose_variants::testing {

/// Calls fn(tile_rows, tile_cols, tiles, label) once per shape of the side x side tiles that
/// cover a rows x cols matrix (at most four shapes); label(what) names the shape in messages.
template <class Fn>
void for_each_tile_shape(int rows, int cols, int side, Fn&& fn) {
  std::map<std::pair<int, int>, std::uint64_t> shapes;
  for (int row0 = 0; row0 < rows; row0 += side) {
    for (int col0 = 0; col0 < cols; col0 += side) {
      ++shapes[{rows - row0 < side ? rows - row0 : side, cols - col0 < side ? cols - col0 : side}];
    }
  }
  for (const auto& [extents, tiles] : shapes) {
    const std::string size =
        " (tile " + std::to_string(extents.first) + " x " + std::to_string(extents.second) + ")";
    fn(extents.first, extents.second, tiles, [&](const char* what) { return what + size; });
  }
}

/// The lane's coordinate when `active`, none otherwise.
inline kit::LaneCoord lane_coord(bool active, kit::Coord e) {
  return active ? kit::LaneCoord(e) : std::nullopt;
}

/// The padded tile kernels (variants.cu's PaddedTile): warp w stores tile rows w,
/// w + BlockRows, ... (lane x: columns x, x + 32, ...) and reads tile columns the same way.
template <int TileDim, int BlockRows>
kit::Trace padded_trace(int rows, int cols) {
  const PaddedLayout<TileDim> tile{};
  kit::Trace t;
  for_each_tile_shape(
      rows, cols, TileDim, [&](int tile_rows, int tile_cols, std::uint64_t n, auto label) {
        for (int w = 0; w < BlockRows; ++w) {
          for (int y = w; y < tile_rows; y += BlockRows) {
            for (int j = 0; j < TileDim && j < tile_cols; j += kit::kWarpSize) {
              t.add(kit::SharedOp::store,
                    kit::warp_access(tile,
                                     [&](int x) {
                                       return lane_coord(j + x < tile_cols, {y, j + x});
                                     }),
                    n, label("padded tile row store"));
            }
          }
          for (int y = w; y < tile_cols; y += BlockRows) {
            for (int j = 0; j < TileDim && j < tile_rows; j += kit::kWarpSize) {
              t.add(kit::SharedOp::load,
                    kit::warp_access(tile,
                                     [&](int x) {
                                       return lane_coord(j + x < tile_rows, {j + x, y});
                                     }),
                    n, label("padded tile column load"));
            }
          }
        }
      });
  return t.compacted();
}

/// The float4 kernels (variants.cu's vec4_kernel) with `Threads` threads a block: full tiles
/// of a matrix whose sides are multiples of 4 take the quads, the others one float per lane.
template <int Threads>
kit::Trace vec4_trace(int rows, int cols) {
  constexpr int kQuadsPerThread = kQuadsPerTile / Threads;
  constexpr int kTileFloats = kTileDim * kTileDim;
  const bool sides_of_quads = rows % kQuadFloats == 0 && cols % kQuadFloats == 0;
  kit::Trace t;
  for_each_tile_shape(
      rows, cols, kTileDim, [&](int tile_rows, int tile_cols, std::uint64_t n, auto label) {
        const bool quads = sides_of_quads && tile_rows == kTileDim && tile_cols == kTileDim;
        for (int w = 0; w < Threads / kit::kWarpSize; ++w) {
          if (quads) {
            for (int k = 0; k < kQuadsPerThread; ++k) {
              const int q0 = w * kit::kWarpSize + k * Threads; // lane x takes quad q0 + x
              for (int j = 0; j < kQuadFloats; ++j) {
                const std::string which = ", float " + std::to_string(j);
                t.add(kit::SharedOp::store,
                      kit::warp_access(QuadLayout{},
                                       [&](int x) { return quad_store_coord(q0 + x, j); }),
                      n, "vec4 quad store" + which);
                t.add(kit::SharedOp::load,
                      kit::warp_access(QuadLayout{},
                                       [&](int x) { return quad_load_coord(q0 + x, j); }),
                      n, "vec4 quad load" + which);
              }
            }
            continue;
          }
          // One float per lane: element e is tile (e / 32, e % 32), a warp one row.
          for (int e0 = w * kit::kWarpSize; e0 < kTileFloats; e0 += Threads) {
            const int r = e0 / kTileDim; // phase 1: the tile row; phase 2: the output row
            t.add(kit::SharedOp::store,
                  kit::warp_access(QuadLayout{},
                                   [&](int x) {
                                     return lane_coord(r < tile_rows && x < tile_cols, {r, x});
                                   }),
                  n, label("vec4 scalar row store"));
            t.add(kit::SharedOp::load,
                  kit::warp_access(QuadLayout{},
                                   [&](int x) {
                                     return lane_coord(r < tile_cols && x < tile_rows, {x, r});
                                   }),
                  n, label("vec4 scalar column load"));
          }
        }
      });
  return t.compacted();
}

/// The float2 kernel on the swizzled 64 x 64 tile: warp w stores tile rows w, w + 8, ... as
/// one 8-byte store (lane x: the pair of columns 2x, 2x + 1, whose first float in the tile
/// is element (r, 2x), or (r, 2x + 1) in the rows that swap pairs) and writes output rows
/// (tile columns) w, w + 8, ... from two 4-byte loads, tile rows 2x and 2x + 1. Every tile
/// makes the same accesses; at a ragged edge only the lanes whose floats exist take part.
inline kit::Trace swizzled_vec2_trace(int rows, int cols) {
  constexpr int kBlockRows = 8;
  kit::Trace t;
  for_each_tile_shape(
      rows, cols, kSwizzledDim, [&](int tile_rows, int tile_cols, std::uint64_t n, auto label) {
        for (int w = 0; w < kBlockRows; ++w) {
          for (int r = w; r < tile_rows; r += kBlockRows) {
            const int first = swizzled_pair_swapped(r) ? 1 : 0; // the pair's lower offset
            t.add(
                kit::SharedOp::store,
                kit::warp_access(
                    SwizzledLayout{},
                    [&](int x) {
                      return lane_coord(kPairFloats * x < tile_cols, {r, kPairFloats * x + first});
                    },
                    kPairFloats),
                n, label("swizzled pair store"));
          }
          for (int r_out = w; r_out < tile_cols; r_out += kBlockRows) {
            for (int j = 0; j < kPairFloats; ++j) {
              t.add(kit::SharedOp::load,
                    kit::warp_access(SwizzledLayout{},
                                     [&](int x) {
                                       const int r =
                                           kPairFloats * x + j; // the tile row this lane reads
                                       return lane_coord(r < tile_rows, {r, r_out});
                                     }),
                    n, label("swizzled column load"));
            }
          }
        }
      });
  return t.compacted();
}

/// A variant as its trace knows it.
struct VariantTrace {
  const char* name;                        ///< The variant's name (variants.hpp).
  bool transposes;                         ///< True for a transpose, false for a copy.
  kit::Trace (*trace)(int rows, int cols); ///< Its trace on a rows x cols matrix.
};

/// No shared memory at all.
inline kit::Trace no_trace(int, int) {
  return {};
}

/// The trace of every variant, in the order of kVariants (variants.hpp), for 16-byte aligned
/// pointers. The persistent and banded variants move the same tiles as transpose_padded_64x8.
inline const VariantTrace kVariantTraces[] = {
    {"transpose_padded_32x4", true, padded_trace<32, 4>},
    {"transpose_padded_32x16", true, padded_trace<32, 16>},
    {"transpose_padded_64x8", true, padded_trace<64, 8>},
    {"transpose_padded_vec4_64t", true, vec4_trace<64>},
    {"transpose_padded_vec4_128t", true, vec4_trace<128>},
    {"transpose_padded_vec4_128t_cs", true, vec4_trace<128>},
    {"transpose_padded_64x8_bands", true, padded_trace<64, 8>},
    {"transpose_padded_64x8_bands_fit", true, padded_trace<64, 8>},
    {"transpose_padded_64x8_bands_persistent", true, padded_trace<64, 8>},
    {"transpose_swizzled_64x8_bands_vec2", true, swizzled_vec2_trace},
    {"copy_vec4", false, no_trace},
};

/// The trace of the variant called `name` on a rows x cols matrix, or nothing for a name
/// this file does not know.
inline std::optional<kit::Trace> variant_trace(const std::string& name, int rows, int cols) {
  for (const VariantTrace& v : kVariantTraces) {
    if (name == v.name) {
      return v.trace(rows, cols);
    }
  }
  return std::nullopt;
}

} // namespace transpose_variants::testing
