/// @file families/score_rows/shape.hpp
/// @brief The score_rows family: scores of many rows against a few queries (the heart of a
/// brute-force similarity search), one kernel template over the tile's layout, the width of
/// its reads and the way its rows are staged. This header is its geometry: `constexpr`,
/// host and device, so the CPU tests build the kernels' traces from the same functions.
///
///     scores[j][r] = sum over c of rows[r][c] * queries[j][c]
///
/// for r < n_rows (rows: n_rows x n_cols, row-major), j < kQueries (queries: kQueries x n_cols,
/// row-major); scores is kQueries x n_rows, row-major.
///
/// Block b owns rows kTileRows b ... kTileRows b + kTileRows - 1 and walks across the columns
/// one kTileRows x kTileDim tile at a time: it stages the tile (and the queries' kTileDim
/// features of those columns) in shared memory, then warp j computes query j's scores of the
/// block's rows, lane l taking tile rows l, l + 32, ... (kRowsPerLane of them). At step s the
/// warp loads kVec features of its query (one address for every lane) and, for each of its
/// rows, the kVec floats of that row at columns kVec s ... kVec s + kVec - 1 (one load per
/// lane). Every staged element is read by all kQueries warps, so shared memory, not DRAM, is
/// the part of the kernel that a bank conflict slows down.
///
/// A lesson picks its kind with one line (`using ScoreRows = families::score_rows::...;`) and
/// gives the tile's layout; families/score_rows/kernel.cuh is the kernel.
#pragma once

#include "kit/config.hpp"
#include "kit/layout.hpp"

namespace families::score_rows {

/// Columns of a staged tile, and rows a warp reads at once: one per lane.
inline constexpr int kTileDim = kit::kWarpSize;
/// Warps per SM the kernels are built for (where the architecture holds them): enough for a
/// conflict to show in the timing.
inline constexpr int kWarpsPerSm = 64;
/// Floats in one pair store of a lane: a float2.
inline constexpr int kPairFloats = 2;
/// Pairs of floats in a tile row: one per lane of a half-warp.
inline constexpr int kPairsPerRow = kTileDim / kPairFloats;

/// How a block stages the tile's rows.
enum class Staging {
  /// 4-byte stores: store i of warp `query` writes tile row staged_row(query, i), lane l its
  /// column l (a whole row per store).
  floats,
  /// 8-byte stores: one store per warp and tile, half-warp h writing tile row
  /// paired_row(query, lane), lane l its pair staged_pair(lane) (columns 2 p and 2 p + 1).
  pairs,
};

/// Where a pair store goes: the float2 at `offset` (a tile offset, even) receives the two
/// floats of a pair, in order, or swapped.
struct PairStore {
  int offset = 0;       ///< Tile offset of the float2's first float.
  bool swapped = false; ///< True when element (r, 2 p + 1) takes the float2's first float.
};

/// One kind of score_rows: every number the kernel's shape depends on.
/// @tparam Queries Queries scored at once: one warp each.
/// @tparam RowsPerLane Tile rows each lane scores.
/// @tparam Vec Floats a lane reads per tile load (1: a float, 4: a float4).
/// @tparam How How the tile's rows are staged.
/// @tparam StepUnroll Steps of the read loop unrolled at once (all of them unless given).
template <int Queries, int RowsPerLane, int Vec, Staging How, int StepUnroll = kTileDim / Vec>
struct Shape {
  static constexpr int kQueries = Queries;                       ///< One warp each.
  static constexpr int kBlockThreads = Queries * kit::kWarpSize; ///< Threads per block.
  static constexpr int kRowsPerLane = RowsPerLane;               ///< Tile rows a lane scores.
  static constexpr int kTileRows = RowsPerLane * kTileDim;     ///< Rows of the tile and of a block.
  static constexpr int kTileRowsPerWarp = kTileRows / Queries; ///< Tile rows a warp stages.
  static constexpr int kVec = Vec;                             ///< Floats per tile load of a lane.
  static constexpr int kSteps = kTileDim / Vec;                ///< Loads along a tile row.
  static constexpr Staging kStaging = How;                     ///< How the rows are staged.
  static constexpr int kStepUnroll = StepUnroll;               ///< Steps unrolled at once.
  /// Floats of the shared buffer reserved for the tile (it starts at offset 0): room for any
  /// layout of the kTileRows x kTileDim tile up to twice its size.
  static constexpr int kTileCapacity = 2 * kTileRows * kTileDim;
  /// Resident blocks per SM the kernels are built for: kWarpsPerSm warps.
  static constexpr int kMinBlocksPerSm = kWarpsPerSm / Queries;
  /// The queries' staged features, after the tile in the shared buffer: query j's feature c
  /// at offset kTileCapacity + 32 j + c. A warp stores 32 consecutive floats (1 wavefront)
  /// and reads kVec of them for all its lanes.
  using FeatureLayout = kit::Pitched<float, Queries, kTileDim>;
  /// Floats of the whole shared buffer: the tile, then the features.
  static constexpr int kSharedFloats = kTileCapacity + Queries * kTileDim;

  static_assert(kTileRows % Queries == 0, "the warps of a block stage the tile's rows evenly");
  static_assert(kTileDim % Vec == 0, "a tile row is a whole number of loads");
  static_assert(How != Staging::pairs || kTileRowsPerWarp * kPairsPerRow == kit::kWarpSize,
                "pair staging: a warp's one store covers its rows, a half-warp per row");

  /// Floats-staged tiles: the tile row that warp `query` stages in its i-th store (0 <= i <
  /// kTileRowsPerWarp): rows query, query + kQueries, ... Lane l stores column l.
  KIT_HD static constexpr int staged_row(int query, int i) { return query + i * Queries; }
  /// Pair-staged tiles: the tile row that lane `lane` of warp `query` stages (half-warp h
  /// stores row kTileRowsPerWarp query + h).
  KIT_HD static constexpr int paired_row(int query, int lane) {
    return kTileRowsPerWarp * query + lane / kPairsPerRow;
  }
  /// Pair-staged tiles: the pair that lane `lane` stages, columns 2 p and 2 p + 1.
  KIT_HD static constexpr int staged_pair(int lane) { return lane % kPairsPerRow; }
  /// The tile row that lane `lane` scores in its h-th load of a step (0 <= h < kRowsPerLane):
  /// rows lane, lane + 32, ... One load of the warp reads 32 consecutive rows.
  KIT_HD static constexpr int scored_row(int lane, int h) { return h * kTileDim + lane; }
  /// The first column of step `s` (0 <= s < kSteps): columns kVec s ... kVec s + kVec - 1.
  KIT_HD static constexpr int step_column(int s) { return s * Vec; }
  /// Offset of feature `col` of query `query` in the shared buffer.
  KIT_HD static constexpr int feature_offset(int query, int col) {
    return kTileCapacity + FeatureLayout{}(query, col);
  }
};

/// The tile read one float at a time, down its columns: 32 queries, two rows per lane, rows
/// staged with 4-byte stores.
using ColumnReads = Shape<32, 2, 1, Staging::floats>;
/// The tile read a float4 at a time, along its rows: 32 queries, two rows per lane, rows
/// staged with 4-byte stores.
using Float4RowReads = Shape<32, 2, 4, Staging::floats>;
/// The tile staged with float2 pair stores and read one float at a time down its columns: 16
/// queries, one row per lane; 8 columns per loop iteration (a swizzled layout's column offsets
/// are computed as the loop goes: fully unrolled, the compiler would hold all 32 of them in
/// registers for the whole kernel, more than a thread has at 64 warps per SM).
using PairStagedColumnReads = Shape<16, 1, 1, Staging::pairs, 8>;

/// The pair store that keeps both floats of a pair in order at the layout's offset of the
/// first: right for any layout that keeps a row's pairs side by side and in order.
template <class Layout>
struct PairsInOrder {
  /// Where pair p of row r goes.
  KIT_HD static constexpr PairStore at(int r, int p) {
    return {Layout{}(r, kPairFloats * p), false};
  }
};

/// True when `Layout` is a layout of the tile of kind `S`: S::kTileRows x kTileDim floats (its
/// kRows, kCols and value_type). The kernel stages that whole tile, as floats, whatever the
/// layout says of itself.
template <class S, class Layout>
inline constexpr bool is_tile_layout = kit::is_layout_of<Layout, float, S::kTileRows, kTileDim>;

/// Compiles only when `Layout` is a layout of the tile of kind `S` (is_tile_layout): every part
/// of the family that takes a layout (the kernel, its launch, its trace, the layout checks)
/// asserts it, so that a layout which says it has fewer rows, or counts its offsets in another
/// type, stops the build with this message instead of being checked on a tile the kernel does
/// not have.
template <class S, class Layout>
KIT_HD constexpr bool holds_the_tile() {
  static_assert(is_tile_layout<S, Layout>,
                "TileLayout must be kTileRows x kTileDim floats (kRows == ScoreRows::kTileRows, "
                "kCols == kTileDim, value_type float): it is the layout of the whole tile "
                "score_rows stages, every row of it, and the kernel stores floats");
  return true;
}

/// The first tile row of `Layout` with a load of shape `S` that is not kVec-float aligned
/// (element (row, step_column(s)) at an offset that is not a multiple of kVec), or -1 when
/// every one is aligned. A misaligned shared access is a fault on the GPU: the launchers
/// check this first.
template <class S, class Layout>
KIT_HD constexpr int first_misaligned_row() {
  static_assert(holds_the_tile<S, Layout>());
  for (int r = 0; r < S::kTileRows; ++r) {
    for (int s = 0; s < S::kSteps; ++s) {
      if (Layout{}(r, S::step_column(s)) % S::kVec != 0) {
        return r;
      }
    }
  }
  return -1;
}

} // namespace families::score_rows
