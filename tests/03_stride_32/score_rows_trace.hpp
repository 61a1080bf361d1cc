// The shared-memory instructions of lesson03::score_rows and of its twin, built from the
// layouts the kernel is instantiated with (host code: the CPU tests use it too).
#pragma once

#include <cstdint>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/trace.hpp"

namespace lesson03::testing {

/// The trace of score_rows_tiled<Tile>. Every shared access is one 4-byte kit::ld_shared /
/// kit::st_shared instruction (never fused, moved or dropped), and every block stages and
/// reads every tile unconditionally (zeros outside the matrix; only the final global stores
/// are masked), so each instruction repeats once per block and column tile.
template <class Tile>
kit::Trace score_rows_trace(int n_rows, int n_cols) {
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
    for (int c = 0; c < kTileDim; ++c) {
      t.add(
          kit::SharedOp::load, sizeof(float), [&](int) { return feature(query, c); }, repeat,
          "feature load (broadcast)");
      for (int h = 0; h < kRowsPerLane; ++h) {
        t.add(kit::SharedOp::load,
              kit::warp_access(Tile{},
                               [&](int lane) {
                                 return kit::Coord{scored_row(lane, h), c};
                               }),
              repeat, "tile column load");
      }
    }
  }
  return t;
}

/// The trace of the student's score_rows.
inline kit::Trace exercise_trace(int n_rows, int n_cols) {
  return score_rows_trace<TileLayout>(n_rows, n_cols);
}

/// The trace of score_rows_twin.
inline kit::Trace twin_trace(int n_rows, int n_cols) {
  return score_rows_trace<TwinTileLayout>(n_rows, n_cols);
}

/// The model's slowdown of score_rows over its twin.
inline double model_ratio(int n_rows, int n_cols) {
  return kit::model_ratio(exercise_trace(n_rows, n_cols), twin_trace(n_rows, n_cols));
}

} // namespace lesson03::testing
