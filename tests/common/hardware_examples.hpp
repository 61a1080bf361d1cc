/// @file hardware_examples.hpp
/// @brief Access patterns whose wavefronts were read from the hardware counters of sm_90
/// GPUs, with the readings: the course's first table (H100, loads) and the cases that fixed
/// the rules for stores and for masked 8- and 16-byte loads (H200, 2026-11-22). The CPU
/// tests hold the bank model to these readings; the GPU suite runs the same patterns and
/// holds the counters to the model.
#pragma once

#include <string>
#include <vector>

#include "kit/bank_model.hpp"

namespace kit::examples {

/// One measured pattern.
struct Example {
  std::string name;  ///< What the warp does.
  WarpAccess access; ///< The lanes.
  SharedOp op;       ///< Load or store.
  int measured;      ///< Wavefronts per request read from the counters (sm_90).
};

/// Lane l reads element [l][column] of a rows x cols tile of `elem`-byte elements.
inline WarpAccess tile_column(int elem, int cols, int column) {
  WarpAccess a;
  a.width = elem;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    a.address[lane] = static_cast<std::uint32_t>((lane * cols + column) * elem);
  }
  return a;
}

/// Lane l at `(l / group) * step` bytes, with an active-lane mask.
inline WarpAccess grouped(int width, int group, unsigned step, unsigned mask = kFullMask) {
  WarpAccess a;
  a.width = width;
  a.mask = mask;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    a.address[lane] = static_cast<std::uint32_t>(lane / group) * step;
  }
  return a;
}

/// Every measured example.
inline std::vector<Example> measured_examples() {
  std::vector<Example> v;
  SharedOp op = SharedOp::load;
  auto add = [&](std::string name, WarpAccess a, int measured) {
    v.push_back({std::move(name), a, op, measured});
  };
  add("float stride 1", strided_access(4, 1), 1);
  add("float stride 3", strided_access(4, 3), 1);
  add("float stride 33", strided_access(4, 33), 1);
  {
    WarpAccess perm = strided_access(4, 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      perm.address[lane] = static_cast<std::uint32_t>(((lane * 7 + 3) % kWarpSize) * 4);
    }
    add("float lane permutation (7l+3) mod 32", perm, 1);
  }
  add("float stride 2", strided_access(4, 2), 2);
  add("float stride 4", strided_access(4, 4), 4);
  add("float stride 8", strided_access(4, 8), 8);
  add("float stride 16", strided_access(4, 16), 16);
  add("float stride 32", strided_access(4, 32), 32);
  add("float all lanes one word", strided_access(4, 0), 1);
  {
    WarpAccess pairs = strided_access(4, 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      pairs.address[lane] = static_cast<std::uint32_t>((lane / 2) * 4);
    }
    add("float lane pairs on one word", pairs, 1);
  }
  {
    WarpAccess two = strided_access(4, 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      two.address[lane] = static_cast<std::uint32_t>((lane % 2) * 32 * 4);
    }
    add("float lanes alternate word 0 / word 32 (one bank)", two, 2);
  }
  add("float column of a 32x32 tile", tile_column(4, 32, 5), 32);
  add("float column of a 32x33 tile", tile_column(4, 33, 5), 1);
  {
    WarpAccess xr = strided_access(4, 1);
    const int column = 5;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      xr.address[lane] = static_cast<std::uint32_t>((lane * 32 + (column ^ lane)) * 4);
    }
    add("float column of tile[r][c ^ r]", xr, 1);
  }
  add("half stride 1", strided_access(2, 1), 1);
  add("half stride 2", strided_access(2, 2), 1);
  add("half column of a 32x32 tile", tile_column(2, 32, 5), 16);
  add("half stride 64", strided_access(2, 64), 32);
  add("u8 stride 1", strided_access(1, 1), 1);
  add("u8 stride 128", strided_access(1, 128), 32);
  add("double stride 1", strided_access(8, 1), 2);
  add("double stride 2", strided_access(8, 2), 4);
  add("double stride 16", strided_access(8, 16), 32);
  add("double broadcast", strided_access(8, 0), 1);
  add("float4 stride 1", strided_access(16, 1), 4);
  add("float4 stride 2", strided_access(16, 2), 8);
  add("float4 stride 8", strided_access(16, 8), 32);
  add("float4 broadcast", strided_access(16, 0), 2);
  {
    WarpAccess pairs = strided_access(16, 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      pairs.address[lane] = static_cast<std::uint32_t>((lane / 2) * 16);
    }
    add("float4 pairs (l, l^1) on one address", pairs, 2);
  }
  {
    WarpAccess repeat = strided_access(16, 1);
    for (int lane = 0; lane < kWarpSize; ++lane) {
      repeat.address[lane] = static_cast<std::uint32_t>((lane % 8) * 16);
    }
    add("float4 lanes 0-7 repeated in each quarter", repeat, 4);
  }
  // Masked 8- and 16-byte loads (H200): the lane^1 merge and the one-address rule.
  add("double, lanes 0 and 31, stride 1", strided_access(8, 1, 0, 0x80000001u), 1);
  add("double, even lanes, one address", strided_access(8, 0, 0, 0x55555555u), 1);
  add("double pairs, lane 0 masked", grouped(8, 2, 8, 0xfffffffeu), 1);
  add(
      "double pairs but lane 31",
      [] {
        WarpAccess a = grouped(8, 2, 8);
        a.address[31] = 31 * 8;
        return a;
      }(),
      3);
  add("float4, even lanes, one address", strided_access(16, 0, 0, 0x55555555u), 1);
  add("float4, lanes 0-30, one address", strided_access(16, 0, 0, 0x7fffffffu), 2);
  add("float4, lanes 0 and 31, one address", strided_access(16, 0, 0, 0x80000001u), 1);
  add("float4, lanes 0 and 31, stride 1", strided_access(16, 1, 0, 0x80000001u), 2);
  add("float4, even lanes, stride 1", strided_access(16, 1, 0, 0x55555555u), 4);
  add("float4 pairs, lane 0 masked", grouped(16, 2, 16, 0xfffffffeu), 3);
  add(
      "float4 pairs but lane 31",
      [] {
        WarpAccess a = grouped(16, 2, 16);
        a.address[31] = 31 * 16;
        return a;
      }(),
      4);
  // Stores (H200): no lane^1 merge, no one-address rule.
  op = SharedOp::store;
  add("float store, all lanes one word", strided_access(4, 0), 1);
  add("float store stride 32", strided_access(4, 32), 32);
  add("double store broadcast", strided_access(8, 0), 2);
  add("double store pairs on one address", grouped(8, 2, 8), 2);
  add("double store, lanes 0-3 of each quarter, one address", strided_access(8, 0, 0, 0x0f0f0f0fu),
      2);
  add("float4 store broadcast", strided_access(16, 0), 4);
  add("float4 store pairs on one address", grouped(16, 2, 16), 4);
  add("float4 store, first half-warp, one address", strided_access(16, 0, 0, 0x0000ffffu), 2);
  add("float4 store, lanes 0 and 31, one address", strided_access(16, 0, 0, 0x80000001u), 2);
  return v;
}

} // namespace kit::examples
