// The shared-memory instructions of lesson08::score_rows and of its twin, built from the
// layouts and pair stores the kernel is instantiated with (host code: the CPU tests use it too).
#pragma once

#include <cstdint>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/trace.hpp"

namespace lesson08::testing {

/// The twin's pair store: pitch 34 keeps every pair in order (as demo.cu's TwinTile).
inline PairStore twin_pair_store(int r, int p) {
  return {TwinTileLayout{}(r, kPairFloats * p), false};
}

/// The trace of score_rows_tiled with tile layout `Tile` and pair store `store`. Every shared
/// access is one kit::ld_shared / kit::st_shared instruction, and every block stages and reads
/// every tile unconditionally (zeros outside the matrix; only the final global stores are
/// masked), so each instruction repeats once per block and column tile.
template <class Tile, class Store>
kit::Trace score_rows_trace(int n_rows, int n_cols, Store store) {
  kit::Trace t;
  if (n_rows <= 0 || n_cols <= 0) {
    return t;
  }
  const auto blocks = static_cast<std::uint64_t>((n_rows + kTileDim - 1) / kTileDim);
  const auto tiles = static_cast<std::uint64_t>((n_cols + kTileDim - 1) / kTileDim);
  const std::uint64_t repeat = blocks * tiles;
  const auto feature = [](int query, int col) -> kit::LaneAddress {
    return static_cast<std::uint32_t>(feature_offset(query, col) * sizeof(float));
  };
  for (int query = 0; query < kQueries; ++query) { // warp `query`
    t.add(
        kit::SharedOp::store, kPairFloats * static_cast<int>(sizeof(float)),
        [&](int lane) -> kit::LaneAddress {
          const PairStore s = store(staged_row(query, lane), staged_pair(lane));
          return static_cast<std::uint32_t>(s.offset * static_cast<int>(sizeof(float)));
        },
        repeat, "pair store");
    t.add(
        kit::SharedOp::store, sizeof(float), [&](int lane) { return feature(query, lane); }, repeat,
        "feature store");
    for (int c = 0; c < kTileDim; ++c) {
      t.add(
          kit::SharedOp::load, sizeof(float), [&](int) { return feature(query, c); }, repeat,
          "feature load (broadcast)");
      t.add(kit::SharedOp::load,
            kit::warp_access(Tile{},
                             [&](int lane) {
                               return kit::Coord{lane, c};
                             }),
            repeat, "tile column load");
    }
  }
  return t;
}

/// The trace of the student's score_rows.
inline kit::Trace exercise_trace(int n_rows, int n_cols) {
  return score_rows_trace<TileLayout>(n_rows, n_cols,
                                      [](int r, int p) { return pair_store(r, p); });
}

/// The trace of score_rows_twin.
inline kit::Trace twin_trace(int n_rows, int n_cols) {
  return score_rows_trace<TwinTileLayout>(n_rows, n_cols, twin_pair_store);
}

/// The model's slowdown of score_rows over its twin.
inline double model_ratio(int n_rows, int n_cols) {
  return kit::model_ratio(exercise_trace(n_rows, n_cols), twin_trace(n_rows, n_cols));
}

/// The model's slowdown over the twin of a score_rows whose every access costs its ideal:
/// what the element swizzle reaches.
inline double ideal_ratio(int n_rows, int n_cols) {
  const kit::SharedCounts ideal = exercise_trace(n_rows, n_cols).ideal();
  const kit::SharedCounts twin = twin_trace(n_rows, n_cols).expected();
  return static_cast<double>(ideal.load_wavefronts + ideal.store_wavefronts) /
         static_cast<double>(twin.load_wavefronts + twin.store_wavefronts);
}

} // namespace lesson08::testing
