// The shared-memory instructions of lesson02::correlate and of its twin, built from the tile
// layouts the kernel is instantiated with (host code: the CPU tests use it too).
#pragma once

#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/trace.hpp"
#include "twin.hpp"

namespace lesson02::testing {

/// The trace of correlate_tiled<Tile> over n outputs. Every block issues the same
/// instructions: the kernel stages and reads through kit::st_shared and kit::ld_shared (one
/// instruction each, never fused, moved or dropped), unconditionally (zeros past the end of x;
/// only the global store of the last block is masked). So each entry repeats once per block,
/// full or not.
template <class Tile>
kit::Trace correlate_trace(int n) {
  constexpr Tile tile{};
  kit::Trace t;
  const std::uint64_t blocks = static_cast<std::uint64_t>((n + kBlockThreads - 1) / kBlockThreads);
  auto floats_at = [](int offset) { return static_cast<std::uint32_t>(offset * sizeof(float)); };
  auto add_pair = [&](kit::SharedOp op, int warp, int first_elem_of_lane0, const char* what) {
    auto elem = [&](int lane) { return first_elem_of_lane0 + warp * kit::kWarpSize + lane; };
    if constexpr (Tile::kPairAccess == PairAccess::one_float2) {
      t.add(
          op, 2 * sizeof(float),
          [&](int lane) -> kit::LaneAddress { return floats_at(tile.re_offset(elem(lane))); },
          blocks, std::string(what) + " (re, im)");
    } else {
      t.add(
          op, sizeof(float),
          [&](int lane) -> kit::LaneAddress { return floats_at(tile.re_offset(elem(lane))); },
          blocks, std::string(what) + " re");
      t.add(
          op, sizeof(float),
          [&](int lane) -> kit::LaneAddress { return floats_at(tile.im_offset(elem(lane))); },
          blocks, std::string(what) + " im");
    }
  };
  for (int warp = 0; warp < kBlockThreads / kit::kWarpSize; ++warp) {
    for (int pass = 0; pass < kStagePasses; ++pass) {
      add_pair(kit::SharedOp::store, warp, pass * kBlockThreads, "stage");
    }
    for (int k = 0; k < kTaps; ++k) {
      add_pair(kit::SharedOp::load, warp, k, "tap");
    }
  }
  return t;
}

/// The trace of the student's correlate(n).
inline kit::Trace exercise_trace(int n) {
  return correlate_trace<TileLayout>(n);
}

/// The trace of correlate_twin(n).
inline kit::Trace twin_trace(int n) {
  return correlate_trace<TwinTileLayout>(n);
}

/// The model's slowdown of correlate over its twin, for n outputs.
inline double model_ratio(int n) {
  return kit::model_ratio(exercise_trace(n), twin_trace(n));
}

} // namespace lesson02::testing
