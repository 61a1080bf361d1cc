/// @file families/score_rows/trace.hpp
/// @brief The shared-memory instructions of the score_rows kernel (kernel.cuh), built on the
/// host from the same layouts and index functions the kernel is instantiated with: what the
/// bank model expects its counters to read. Host code: the CPU tests use it too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kit/layout.hpp"
#include "kit/trace.hpp"
#include "score_rows/shape.hpp"

namespace families::score_rows {

/// The load of kind `S` of tile rows scored_row(l, h), columns step_column(s) ... + kVec - 1,
/// on layout `Layout`.
template <class S, class Layout>
kit::WarpAccess tile_read(int h, int s) {
  static_assert(holds_the_tile<S, Layout>());
  return kit::warp_access(
      Layout{},
      [&](int lane) {
        return kit::Coord{S::scored_row(lane, h), S::step_column(s)};
      },
      S::kVec);
}

/// Why the loads of kind `S` on `Layout` cannot run (the first misaligned one), or nothing.
template <class S, class Layout>
std::optional<std::string> misalignment() {
  constexpr int row = first_misaligned_row<S, Layout>();
  if (row < 0) {
    return std::nullopt;
  }
  return "tile row " + std::to_string(row) + " starts at float " +
         std::to_string(Layout{}(row, 0)) + ": its float" + std::to_string(S::kVec) +
         " loads are not " + std::to_string(S::kVec * 4) +
         "-byte aligned (a fault on the GPU; the kernel is not launched). Keep every row start "
         "a multiple of " +
         std::to_string(S::kVec) + " floats.";
}

/// The trace of score_rows_tiled<S, Layout, Pairs>. Every shared access is one kit::ld_shared /
/// kit::st_shared instruction (never fused, moved or dropped), and every block stages and
/// reads every tile unconditionally (zeros outside the matrix; only the final global stores
/// are masked), so each instruction repeats once per block and column tile.
template <class S, class Layout, class Pairs = PairsInOrder<Layout>>
kit::Trace trace(int n_rows, int n_cols) {
  static_assert(holds_the_tile<S, Layout>());
  kit::Trace t;
  if (n_rows <= 0 || n_cols <= 0) {
    return t;
  }
  const auto blocks = static_cast<std::uint64_t>((n_rows + S::kTileRows - 1) / S::kTileRows);
  const auto tiles = static_cast<std::uint64_t>((n_cols + kTileDim - 1) / kTileDim);
  const std::uint64_t repeat = blocks * tiles;
  const auto feature = [](int query, int col) -> kit::LaneAddress {
    return static_cast<std::uint32_t>(S::feature_offset(query, col) * sizeof(float));
  };
  constexpr bool kWide = S::kVec > 1;
  const std::string vec = "float" + std::to_string(S::kVec);
  for (int query = 0; query < S::kQueries; ++query) { // warp `query`
    if constexpr (S::kStaging == Staging::floats) {
      for (int i = 0; i < S::kTileRowsPerWarp; ++i) {
        const int r = S::staged_row(query, i);
        t.add(kit::SharedOp::store,
              kit::warp_access(Layout{},
                               [&](int lane) {
                                 return kit::Coord{r, lane};
                               }),
              repeat, "tile row store");
      }
    } else {
      t.add(
          kit::SharedOp::store, kPairFloats * static_cast<int>(sizeof(float)),
          [&](int lane) -> kit::LaneAddress {
            const PairStore s = Pairs::at(S::paired_row(query, lane), S::staged_pair(lane));
            return static_cast<std::uint32_t>(s.offset * static_cast<int>(sizeof(float)));
          },
          repeat, "pair store");
    }
    t.add(
        kit::SharedOp::store, sizeof(float), [&](int lane) { return feature(query, lane); }, repeat,
        "feature store");
    for (int s = 0; s < S::kSteps; ++s) {
      t.add(
          kit::SharedOp::load, S::kVec * static_cast<int>(sizeof(float)),
          [&](int) { return feature(query, S::step_column(s)); }, repeat,
          kWide ? "feature " + vec + " load (one address)" : "feature load (broadcast)");
      for (int h = 0; h < S::kRowsPerLane; ++h) {
        t.add(kit::SharedOp::load, tile_read<S, Layout>(h, s), repeat,
              kWide ? "tile " + vec + " load" : "tile column load");
      }
    }
  }
  return t;
}

/// A lesson's score_rows and the conflict-free twin it is timed against, as traces: kind
/// `S`, the student's `Layout` (and `Pairs`), the twin's `TwinLayout` (and `TwinPairs`).
template <class S, class Layout, class TwinLayout, class Pairs = PairsInOrder<Layout>,
          class TwinPairs = PairsInOrder<TwinLayout>>
struct Traces {
  /// The trace of the student's score_rows.
  static kit::Trace exercise(int n_rows, int n_cols) {
    return trace<S, Layout, Pairs>(n_rows, n_cols);
  }
  /// The trace of the twin.
  static kit::Trace twin(int n_rows, int n_cols) {
    return trace<S, TwinLayout, TwinPairs>(n_rows, n_cols);
  }
  /// The model's slowdown of the student's score_rows over its twin.
  static double model_ratio(int n_rows, int n_cols) {
    return kit::model_ratio(exercise(n_rows, n_cols), twin(n_rows, n_cols));
  }
  /// The model's slowdown over the twin of a score_rows whose every access costs its ideal
  /// (the same requests as the student's).
  static double ideal_ratio(int n_rows, int n_cols) {
    const kit::SharedCounts ideal = exercise(n_rows, n_cols).ideal();
    const kit::SharedCounts twin_counts = twin(n_rows, n_cols).expected();
    return static_cast<double>(ideal.load_wavefronts + ideal.store_wavefronts) /
           static_cast<double>(twin_counts.load_wavefronts + twin_counts.store_wavefronts);
  }
};

} // namespace families::score_rows
