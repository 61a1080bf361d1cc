// The shared-memory instructions of lesson07::score_rows4 and of its twin, built from the
// layouts the kernel is instantiated with (host code: the CPU tests use it too).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/trace.hpp"

namespace lesson07::testing {

/// The float4 load of tile rows scored_row(l, h), columns step_column(s) ... + 3.
template <class Tile>
kit::WarpAccess tile_read(int h, int s) {
  return kit::warp_access(
      Tile{},
      [&](int lane) {
        return kit::Coord{scored_row(lane, h), step_column(s)};
      },
      kVec);
}

/// Why the wide loads of `Tile` cannot run (the first misaligned one), or nothing.
template <class Tile>
std::optional<std::string> misalignment() {
  constexpr int row = first_misaligned_row<Tile>();
  if (row < 0) {
    return std::nullopt;
  }
  return "tile row " + std::to_string(row) + " starts at float " + std::to_string(Tile{}(row, 0)) +
         ": its float4 loads are not 16-byte aligned (a fault on the GPU; the kernel is not "
         "launched). Keep every row start a multiple of 4 floats.";
}

/// The trace of score_rows4_tiled<Tile>. Every shared access is one kit::ld_shared /
/// kit::st_shared instruction (never fused, moved or dropped), and every block stages and
/// reads every tile unconditionally (zeros outside the matrix; only the final global stores
/// are masked), so each instruction repeats once per block and column tile.
template <class Tile>
kit::Trace score_rows4_trace(int n_rows, int n_cols) {
  kit::Trace t;
  if (n_rows <= 0 || n_cols <= 0) {
    return t;
  }
  const auto blocks = static_cast<std::uint64_t>((n_rows + kTileRows - 1) / kTileRows);
  const auto tiles = static_cast<std::uint64_t>((n_cols + kTileDim - 1) / kTileDim);
  const std::uint64_t repeat = blocks * tiles;
  const auto feature = [](int query, int col) -> kit::LaneAddress {
    return static_cast<std::uint32_t>(feature_offset(query, col) * sizeof(float));
  };
  for (int query = 0; query < kQueries; ++query) { // warp `query`
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      const int r = staged_row(query, i);
      t.add(kit::SharedOp::store,
            kit::warp_access(Tile{},
                             [&](int lane) {
                               return kit::Coord{r, lane};
                             }),
            repeat, "tile row store");
    }
    t.add(
        kit::SharedOp::store, sizeof(float), [&](int lane) { return feature(query, lane); }, repeat,
        "feature store");
    for (int s = 0; s < kSteps; ++s) {
      t.add(
          kit::SharedOp::load, kVec * sizeof(float),
          [&](int) { return feature(query, step_column(s)); }, repeat,
          "feature float4 load (one address)");
      for (int h = 0; h < kRowsPerLane; ++h) {
        t.add(kit::SharedOp::load, tile_read<Tile>(h, s), repeat, "tile float4 load");
      }
    }
  }
  return t;
}

/// The trace of the student's score_rows4.
inline kit::Trace exercise_trace(int n_rows, int n_cols) {
  return score_rows4_trace<TileLayout>(n_rows, n_cols);
}

/// The trace of score_rows4_twin.
inline kit::Trace twin_trace(int n_rows, int n_cols) {
  return score_rows4_trace<TwinTileLayout>(n_rows, n_cols);
}

/// The model's slowdown of score_rows4 over its twin.
inline double model_ratio(int n_rows, int n_cols) {
  return kit::model_ratio(exercise_trace(n_rows, n_cols), twin_trace(n_rows, n_cols));
}

} // namespace lesson07::testing
