// The shared-memory instructions of lesson03::score_rows and of its twin, built from the same
// index functions the kernels use, and the launches the timer needs.
#pragma once

#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/device.hpp"
#include "kit/timer.hpp"
#include "kit/trace.hpp"

namespace lesson03::testing {

/// Byte offset of a float index in the shared buffer.
inline std::uint32_t bytes_of(int float_index) {
  return static_cast<std::uint32_t>(float_index * sizeof(float));
}

/// The trace of a score_rows kernel with tile layout `tile_index_of`. The kernels make every
/// shared access with kit::ld_shared / kit::st_shared (one 4-byte instruction each, never
/// fused, moved or dropped), and every block stages and reads every tile unconditionally
/// (zeros outside the matrix; only the final global stores are masked), so each instruction
/// repeats once per block and column tile.
template <class TileIndex>
kit::Trace score_rows_trace(int n_rows, int n_cols, TileIndex tile_index_of) {
  kit::Trace t;
  if (n_rows <= 0 || n_cols <= 0) {
    return t;
  }
  const std::uint64_t blocks = static_cast<std::uint64_t>((n_rows + kBlockRows - 1) / kBlockRows);
  const std::uint64_t tiles = static_cast<std::uint64_t>((n_cols + kTileDim - 1) / kTileDim);
  const std::uint64_t repeat = blocks * tiles;
  for (int query = 0; query < kQueries; ++query) { // warp `query`
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      const int r = staged_row(query, i);
      t.add(
          kit::SharedOp::store, sizeof(float),
          [&](int lane) -> kit::LaneAddress { return bytes_of(tile_index_of(r, lane)); }, repeat,
          "tile row store");
    }
    t.add(
        kit::SharedOp::store, sizeof(float),
        [&](int lane) -> kit::LaneAddress { return bytes_of(query_index(query, lane)); }, repeat,
        "query store");
    for (int c = 0; c < kTileDim; ++c) {
      t.add(
          kit::SharedOp::load, sizeof(float),
          [&](int) -> kit::LaneAddress { return bytes_of(query_index(query, c)); }, repeat,
          "query feature load (broadcast)");
      for (int h = 0; h < kRowsPerLane; ++h) {
        t.add(
            kit::SharedOp::load, sizeof(float),
            [&](int lane) -> kit::LaneAddress {
              return bytes_of(tile_index_of(scored_row(lane, h), c));
            },
            repeat, "tile column load");
      }
    }
  }
  return t;
}

/// The trace of the student's score_rows.
inline kit::Trace exercise_trace(int n_rows, int n_cols) {
  return score_rows_trace(n_rows, n_cols, tile_index);
}

/// The trace of score_rows_twin.
inline kit::Trace twin_trace(int n_rows, int n_cols) {
  return score_rows_trace(n_rows, n_cols, twin_tile_index);
}

/// The model's slowdown of score_rows over its twin.
inline double model_ratio(int n_rows, int n_cols) {
  return kit::model_ratio(exercise_trace(n_rows, n_cols), twin_trace(n_rows, n_cols));
}

/// A matrix shape for a timing: 8 full waves of blocks on this GPU, 8 column tiles each.
struct Shape {
  int rows; ///< Rows of the matrix.
  int cols; ///< Columns of the matrix.
};
inline Shape saturating_shape() {
  constexpr int kWaves = 8;
  constexpr int kColumnTiles = 8;
  return {kit::saturating_blocks(score_rows_twin_kernel(), kBlockThreads, 0) * kBlockRows * kWaves,
          kTileDim * kColumnTiles};
}

/// A launch of `run` as the timer wants it.
template <class Run>
kit::Launch launch(std::string name, const void* kernel, Run run) {
  kit::Launch l;
  l.name = std::move(name);
  l.kernel = kernel;
  l.block_threads = kBlockThreads;
  l.smem_bytes = 0; // static shared memory, kSharedFloats floats in both kernels
  l.run = run;
  return l;
}

} // namespace lesson03::testing
