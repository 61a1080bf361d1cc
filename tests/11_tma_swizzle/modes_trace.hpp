// The shared-memory instructions of copy_tiles and score_tiles in each configuration, built
// from the read layouts the kernels are instantiated with (host code: the CPU tests use it
// too). The TMA's writes and the mbarrier are not LSU instructions (the counters read none).
#pragma once

#include <cstdint>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/trace.hpp"

namespace lesson11::testing {

/// The student's Read128Layout is the layout of the whole box, of floats (a compile error names
/// the rule otherwise).
static_assert(holds_the_128b_box<Read128Layout>());

/// The read layout and box columns of configuration `c`, given to f as a layout object.
template <class F>
decltype(auto) with_read_layout(Config c, F&& f) {
  switch (c) {
  case Config::none32x8:
    return f(PlainBoxLayout<kBox32Cols>{});
  case Config::b32:
    return f(Swizzle32Layout{});
  case Config::none32x16:
    return f(PlainBoxLayout<kBox64Cols>{});
  case Config::b64:
    return f(Swizzle64Layout{});
  case Config::none32x32:
    return f(PlainBoxLayout<kBox128Cols>{});
  case Config::b128:
    break;
  }
  return f(Read128Layout{});
}

/// Tiles of an n_rows x n_cols matrix in boxes of kBoxRows x box_cols.
inline std::uint64_t tile_count(int n_rows, int n_cols, int box_cols) {
  return static_cast<std::uint64_t>((n_rows + kBoxRows - 1) / kBoxRows) *
         static_cast<std::uint64_t>((n_cols + box_cols - 1) / box_cols);
}

/// The reads of one tile by one warp: chunk k of every row, for every k, 16 bytes a lane.
template <class Layout>
kit::Trace tile_reads(const Layout& layout, std::uint64_t repeat) {
  kit::Trace t;
  for (int k = 0; k < Layout::kCols / kChunkFloats; ++k) {
    t.add(kit::SharedOp::load, chunk_column_read("", layout, k).access, repeat, "chunk read");
  }
  return t;
}

/// copy_tiles in configuration `c`: every tile read once by one warp.
inline kit::Trace copy_trace(Config c, int n_rows, int n_cols) {
  return with_read_layout(c, [&](auto layout) {
    using L = decltype(layout);
    return tile_reads(layout, tile_count(n_rows, n_cols, L::kCols));
  });
}

/// score_tiles in configuration `c`: every tile read by each of the kScoreWarps warps.
inline kit::Trace score_trace(Config c, int n_rows, int n_cols) {
  return with_read_layout(c, [&](auto layout) {
    using L = decltype(layout);
    return tile_reads(layout, tile_count(n_rows, n_cols, L::kCols) * kScoreWarps);
  });
}

/// The model's wavefronts per request of configuration `c`'s reads.
inline double model_wavefronts_per_request(Config c) {
  return copy_trace(c, kBoxRows, kBox128Cols).expected().load_wavefronts_per_request();
}

} // namespace lesson11::testing
