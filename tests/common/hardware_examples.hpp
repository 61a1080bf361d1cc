/// @file hardware_examples.hpp
/// @brief The access patterns whose wavefronts were read from the counters of an H100
/// (sm_90), with the readings. The CPU tests hold the bank model to these readings; the GPU
/// suite runs the same patterns and holds the counters to the model.
#pragma once

#include <string>
#include <vector>

#include "kit/bank_model.hpp"

namespace kit::examples {

/// One measured pattern.
struct Example {
  std::string name;   ///< What the warp does.
  WarpAccess access;  ///< The lanes.
  int measured;       ///< Wavefronts per request read from the counters (sm_90).
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

/// Every example of the measured table, loads (stores follow the same rules).
inline std::vector<Example> measured_examples() {
  std::vector<Example> v;
  auto add = [&](std::string name, WarpAccess a, int measured) {
    v.push_back({std::move(name), a, measured});
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
  return v;
}

} // namespace kit::examples
