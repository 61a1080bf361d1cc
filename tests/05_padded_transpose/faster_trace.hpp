// The shared-memory instructions of the variants of faster.hpp, built from the index
// functions their kernels use (faster_layout.hpp), tile by tile, ragged edges included.
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

#include <faster.hpp>
#include <faster_layout.hpp>

#include "kit/bank_model.hpp"
#include "kit/trace.hpp"
#include "transpose_trace.hpp"

namespace lesson05::testing {

/// Calls fn(tile_rows, tile_cols, tiles) once per shape of the side x side tiles that cover a
/// rows x cols matrix (at most four shapes).
template <class Fn>
void for_each_tile_shape(int rows, int cols, int side, Fn&& fn) {
  std::map<std::pair<int, int>, std::uint64_t> shapes;
  for (int row0 = 0; row0 < rows; row0 += side) {
    for (int col0 = 0; col0 < cols; col0 += side) {
      ++shapes[{rows - row0 < side ? rows - row0 : side, cols - col0 < side ? cols - col0 : side}];
    }
  }
  for (const auto& [extents, tiles] : shapes) {
    fn(extents.first, extents.second, tiles);
  }
}

/// A byte address of the tile from a float slot.
inline kit::LaneAddress float_slot(int slot) {
  return static_cast<std::uint32_t>(slot) * static_cast<std::uint32_t>(sizeof(float));
}

/// The padded tile kernels (faster.cu's PaddedTile): warp w stores tile rows w,
/// w + BlockRows, ... (lane x: columns x, x + 32, ...) and reads tile columns the same way.
template <int TileDim, int BlockRows>
kit::Trace faster_padded_trace(int rows, int cols) {
  kit::Trace t;
  for_each_tile_shape(rows, cols, TileDim, [&](int tile_rows, int tile_cols, std::uint64_t n) {
    for (int w = 0; w < BlockRows; ++w) {
      for (int y = w; y < tile_rows; y += BlockRows) {
        for (int j = 0; j < TileDim && j < tile_cols; j += kit::kWarpSize) {
          t.add(
              kit::SharedOp::store, sizeof(float),
              [&](int x) -> kit::LaneAddress {
                return j + x < tile_cols ? float_slot(faster::padded_slot<TileDim>(y, j + x))
                                         : std::nullopt;
              },
              n, tile_label("padded tile row store", tile_rows, tile_cols));
        }
      }
      for (int y = w; y < tile_cols; y += BlockRows) {
        for (int j = 0; j < TileDim && j < tile_rows; j += kit::kWarpSize) {
          t.add(
              kit::SharedOp::load, sizeof(float),
              [&](int x) -> kit::LaneAddress {
                return j + x < tile_rows ? float_slot(faster::padded_slot<TileDim>(j + x, y))
                                         : std::nullopt;
              },
              n, tile_label("padded tile column load", tile_rows, tile_cols));
        }
      }
    }
  });
  return t.compacted();
}

/// The float4 kernels (faster.cu's vec4_kernel) with `Threads` threads a block: full tiles
/// of a matrix whose sides are multiples of 4 take the quads, the others one float per lane.
template <int Threads>
kit::Trace faster_vec4_trace(int rows, int cols) {
  constexpr int kQuadsPerThread = faster::kQuadsPerTile / Threads;
  constexpr int kTileFloats = kTileDim * kTileDim;
  const bool sides_of_quads = rows % faster::kQuadFloats == 0 && cols % faster::kQuadFloats == 0;
  kit::Trace t;
  for_each_tile_shape(rows, cols, kTileDim, [&](int tile_rows, int tile_cols, std::uint64_t n) {
    const bool quads = sides_of_quads && tile_rows == kTileDim && tile_cols == kTileDim;
    for (int w = 0; w < Threads / kit::kWarpSize; ++w) {
      if (quads) {
        for (int k = 0; k < kQuadsPerThread; ++k) {
          const int q0 = w * kit::kWarpSize + k * Threads; // lane x takes quad q0 + x
          for (int j = 0; j < faster::kQuadFloats; ++j) {
            t.add(
                kit::SharedOp::store, sizeof(float),
                [&](int x) { return float_slot(faster::quad_store_slot(q0 + x, j)); }, n,
                "vec4 quad store, float " + std::to_string(j));
            t.add(
                kit::SharedOp::load, sizeof(float),
                [&](int x) { return float_slot(faster::quad_load_slot(q0 + x, j)); }, n,
                "vec4 quad load, float " + std::to_string(j));
          }
        }
        continue;
      }
      // One float per lane: element e is tile (e / 32, e % 32), a warp one row.
      for (int e0 = w * kit::kWarpSize; e0 < kTileFloats; e0 += Threads) {
        const int r = e0 / kTileDim; // phase 1: the tile row; phase 2: the output row
        t.add(
            kit::SharedOp::store, sizeof(float),
            [&](int x) -> kit::LaneAddress {
              return r < tile_rows && x < tile_cols
                         ? float_slot(faster::padded_slot<kTileDim>(r, x))
                         : std::nullopt;
            },
            n, tile_label("vec4 scalar row store", tile_rows, tile_cols));
        t.add(
            kit::SharedOp::load, sizeof(float),
            [&](int x) -> kit::LaneAddress {
              return r < tile_cols && x < tile_rows
                         ? float_slot(faster::padded_slot<kTileDim>(x, r))
                         : std::nullopt;
            },
            n, tile_label("vec4 scalar column load", tile_rows, tile_cols));
      }
    }
  });
  return t.compacted();
}

/// The float2 kernel on the swizzled 64 x 64 tile: warp w stores tile rows w, w + 8, ... as
/// one 8-byte store (lane x: the pair of columns 2x, 2x + 1) and writes output rows (tile
/// columns) w, w + 8, ... from two 4-byte loads, tile rows 2x and 2x + 1. Every tile makes
/// the same accesses; at a ragged edge only the lanes whose floats exist take part.
inline kit::Trace faster_swizzled_vec2_trace(int rows, int cols) {
  using faster::kPairFloats;
  using faster::kSwizzledDim;
  kit::Trace t;
  for_each_tile_shape(rows, cols, kSwizzledDim, [&](int tile_rows, int tile_cols, std::uint64_t n) {
    for (int w = 0; w < kBlockRows; ++w) {
      for (int r = w; r < tile_rows; r += kBlockRows) {
        t.add(
            kit::SharedOp::store, 2 * sizeof(float),
            [&](int x) -> kit::LaneAddress {
              return kPairFloats * x < tile_cols ? float_slot(faster::swizzled_pair_slot(r, x))
                                                 : std::nullopt;
            },
            n, tile_label("swizzled pair store", tile_rows, tile_cols));
      }
      for (int r_out = w; r_out < tile_cols; r_out += kBlockRows) {
        for (int j = 0; j < kPairFloats; ++j) {
          t.add(
              kit::SharedOp::load, sizeof(float),
              [&](int x) -> kit::LaneAddress {
                const int r = kPairFloats * x + j; // the tile row this lane reads
                return r < tile_rows ? float_slot(faster::swizzled_slot(r, r_out)) : std::nullopt;
              },
              n, tile_label("swizzled column load", tile_rows, tile_cols));
        }
      }
    }
  });
  return t.compacted();
}

/// The trace of the variant of faster.hpp called `name` on a rows x cols matrix (16-byte
/// aligned pointers), or nothing for a name this file does not know yet.
inline std::optional<kit::Trace> faster_trace(const std::string& name, int rows, int cols) {
  if (name == "transpose_padded_32x4") {
    return faster_padded_trace<32, 4>(rows, cols);
  }
  if (name == "transpose_padded_32x16") {
    return faster_padded_trace<32, 16>(rows, cols);
  }
  if (name == "transpose_padded_64x8" || name == "transpose_padded_64x8_bands" ||
      name == "transpose_padded_64x8_bands_fit" ||
      name == "transpose_padded_64x8_bands_persistent") {
    return faster_padded_trace<64, 8>(rows, cols);
  }
  if (name == "transpose_padded_vec4_64t") {
    return faster_vec4_trace<64>(rows, cols);
  }
  if (name == "transpose_padded_vec4_128t" || name == "transpose_padded_vec4_128t_cs") {
    return faster_vec4_trace<128>(rows, cols);
  }
  if (name == "transpose_swizzled_64x8_bands_vec2") {
    return faster_swizzled_vec2_trace(rows, cols);
  }
  if (name == "copy_vec4") {
    return kit::Trace{}; // no shared memory
  }
  return std::nullopt;
}

} // namespace lesson05::testing
