/// @file tools/transpose_bench/variants/variant_layouts.hpp
/// @brief The layouts of the variants' tiles (where each tile element lives in shared memory),
/// the tile elements their threads touch, and which tile a block takes. The kernels
/// (variants.cu) use them for every shared access; the variants' CPU tests build the kernels'
/// traces from them and hold every access to its width's ideal with the bank model.
#pragma once

#include "kit/config.hpp"
#include "kit/layout.hpp"

namespace transpose_variants {

/// Side of the 32 x 32 tiles: one warp spans a tile row.
inline constexpr int kTileDim = kit::kWarpSize;

// ---------------------------------------------------------------------------------------
// Padded square tiles of any side that is a multiple of 32.
// ---------------------------------------------------------------------------------------

/// A TileDim x TileDim tile whose rows are TileDim + 1 floats apart (the lesson's padding,
/// for any side that is a multiple of 32).
///
///   TileDim 64, pitch 65   col:  0   1 ...  31 |  32  33 ...  63 | pad
///     row 0               bank:  0   1 ...  31 |   0   1 ...  31 |  0
///     row 1               bank:  1   2 ...   0 |   1   2 ...   0 |  1
///     row r               bank: (r + c) % 32
///   A warp stores 32 consecutive columns of a row (32 banks) or reads 32 consecutive rows
///   of a column (bank (r + c) % 32: 32 banks): 1 wavefront either way.
template <int TileDim>
using PaddedLayout = kit::Pitched<float, TileDim, TileDim, TileDim + 1>;

// ---------------------------------------------------------------------------------------
// float4 in global memory, scalar accesses to a 32 x 33 tile (the vec4 variants).
// ---------------------------------------------------------------------------------------

/// The vec4 variants' tile.
using QuadLayout = PaddedLayout<kTileDim>;
/// Floats in one global access of the vec4 variants.
inline constexpr int kQuadFloats = 4;
/// Quads (float4) in a tile row of 32 floats.
inline constexpr int kQuadsPerRow = kTileDim / kQuadFloats;
/// Quads in a 32 x 32 tile.
inline constexpr int kQuadsPerTile = kTileDim * kQuadsPerRow;

/// Tile row of quad q (quads are numbered row by row: a warp covers 4 rows of 8 quads).
KIT_HD constexpr int quad_row(int q) {
  return q / kQuadsPerRow;
}
/// First tile column of quad q.
KIT_HD constexpr int quad_col(int q) {
  return kQuadFloats * (q % kQuadsPerRow);
}
/// Phase 1: the j-th float of input quad q goes to tile element (quad_row, quad_col + j).
///   A warp's j-th store: rows r0..r0+3 by quads m = 0..7 -> bank (r + 4 m + j) % 32, 32 banks.
KIT_HD constexpr kit::Coord quad_store_coord(int q, int j) {
  return {quad_row(q), quad_col(q) + j};
}
/// Phase 2: output quad q is output row quad_row(q) of the tile (a tile column), floats
/// quad_col(q) .. + 3 (tile rows); its j-th float is tile element (quad_col + j, quad_row).
///   A warp's j-th load: columns R0..R0+3 by quads m -> bank (4 m + j + R) % 32, 32 banks.
KIT_HD constexpr kit::Coord quad_load_coord(int q, int j) {
  return {quad_col(q) + j, quad_row(q)};
}

// ---------------------------------------------------------------------------------------
// A 64 x 64 XOR-swizzled tile for float2 accesses in global memory (no padding).
// ---------------------------------------------------------------------------------------

/// Side of the swizzled tile: a warp's float2 access covers one 64-float row (256 bytes).
inline constexpr int kSwizzledDim = 2 * kit::kWarpSize;
/// Floats in one global access of the float2 variant.
inline constexpr int kPairFloats = 2;

// [swizzled_tile]
/// The swizzled tile before its swizzles: rows of 64 floats, offset 64 r + c (bits 0-5: the
/// column, bits 6-11: the row).
using SwizzledRows = kit::Pitched<float, kSwizzledDim, kSwizzledDim>;
/// Pairs of floats (columns 2p, 2p + 1) trade places inside their half row: the 4 low bits
/// of the pair number p (offset bits 1-4) XOR bits 1-4 of the row (offset bits 7-10).
using PairSwizzle = kit::Swizzle<4, 1, 6>;
/// Rows 32..63 swap the two floats of each pair: offset bit 0 XOR bit 5 of the row (bit 11).
using HalfSwap = kit::Swizzle<1, 0, 11>;
/// The swizzled tile as a composition of CuTe's swizzles: SwizzledLayout's definition.
using SwizzledComposition = kit::Swizzled<SwizzledRows, PairSwizzle, HalfSwap>;

/// Shared bytes of one tile as the kernels declare it: the swizzled 64 x 64 tile, and the
/// padded tile of transpose_padded_64x8 (and its _bands variants), 64 rows of 65 floats.
inline constexpr int kSwizzledTileBytes =
    kit::cosize<SwizzledComposition>() * static_cast<int>(sizeof(float));
inline constexpr int kPaddedTileBytes =
    kSwizzledDim * PaddedLayout<kSwizzledDim>::kPitch * static_cast<int>(sizeof(float));
static_assert(kSwizzledTileBytes == 16384 && kPaddedTileBytes == 16640,
              "64 x 64 floats; 64 x 65 floats");
// [swizzled_tile]

/// Pairs of floats in a row of the swizzled tile.
inline constexpr int kPairsPerRow = kSwizzledDim / kPairFloats;
/// PairSwizzle on pair numbers (32 r + p, pairs counted row by row) instead of float offsets:
/// the 4 low bits of p XOR bits 1-4 of the row (pair-number bits 6-9).
using PairNumberSwizzle = kit::Swizzle<4, 0, 6>;

/// Offset of the pair of floats (r, 2p), (r, 2p + 1) as phase 1 stores it: one 8-byte
/// aligned float2 at pair position p ^ ((r >> 1) & 15) of row r (PairSwizzle).
KIT_HD constexpr int swizzled_pair_offset(int r, int p) {
  static_assert(kSwizzledDim == 64 && kit::kNumBanks == 32, "the picture of SwizzledLayout");
  return kPairFloats * PairNumberSwizzle{}(r * kPairsPerRow + p); // 8-byte aligned
}
/// True when tile row r keeps each pair's two floats swapped (rows 32..63: HalfSwap).
KIT_HD constexpr bool swizzled_pair_swapped(int r) {
  return ((r >> 5) & 1) != 0;
}

/// The swizzled tile the float2 variant uses: SwizzledComposition's offsets (a CPU test
/// checks every element), in the arithmetic of pairs that the kernel compiles to fewer
/// instructions than the composition's bit masks. Element (r, c), p = c / 2, at
///   64 r + 2 (p ^ ((r >> 1) & 15)) + ((c & 1) ^ ((r >> 5) & 1)).
///
///   row 0, 1      pairs 0 1 2 ... 15 | 16 ... 31       (XOR 0)
///   row 2, 3      pairs 1 0 3 ... 14 | 17 ... 30       (XOR 1)
///   ...
///   row 30, 31    pairs 15 14 ... 0  | 31 ... 16       (XOR 15)
///   rows 32-63    the same, each pair's two floats swapped
///   Phase 1, a warp stores row r as 32 float2 (8 bytes: lanes 0-15, then 16-31): each half
///   warp fills one half row, 32 consecutive words in some order: 1 wavefront each, 2 in all
///   (the ideal). Phase 2, a warp writes output row R as 32 float2: lane x reads tile
///   (2x, R) and then (2x + 1, R), at bank 2 (((R >> 1) ^ (x & 15)) % 16) + ((R & 1) ^ (x >> 4)):
///   lane x's (x & 15, x >> 4) are 32 different pairs, so 32 banks, 1 wavefront per load.
///   Without the swap, column R of rows 2x and 2x + 32 would share a bank.
struct SwizzledLayout {
  using value_type = float;                  ///< The element type.
  static constexpr int kRows = kSwizzledDim; ///< Rows of the tile.
  static constexpr int kCols = kSwizzledDim; ///< Columns of the tile.

  /// Offset of element (r, c): its pair's offset, the float within the pair through HalfSwap.
  KIT_HD constexpr int operator()(int r, int c) const {
    return HalfSwap{}(swizzled_pair_offset(r, c / kPairFloats) + c % kPairFloats);
  }
};

// ---------------------------------------------------------------------------------------
// Which tile a block takes.
// ---------------------------------------------------------------------------------------

/// Tile columns in one band of the banded order. A launch of 64 x 64 tiles keeps about
/// 1 000 blocks resident on a 132-SM GPU (8 a SM): with bands 32 tiles wide they cover about
/// 32 x 33 tiles, a square, instead of 8 whole tile rows.
inline constexpr int kBandTiles = 32;

/// The t-th tile in banded order, as (tile row, tile column) of the grid of tiles: the grid
/// is cut into bands kBandTiles tile columns wide (the last one may be narrower); a band is
/// taken row by row, then the next.
///
///   tiles_cols = 5, kBandTiles = 2 (for the picture):   0  1 |  6  7 | 12
///                                                       2  3 |  8  9 | 13
///                                                       4  5 | 10 11 | 14
///   Blocks launched together take consecutive t: a few rows of one band. Each input row
///   is read, and each output row written, in runs of kBandTiles tiles, both ways.
KIT_HD constexpr kit::Coord banded_tile(int t, int tiles_rows, int tiles_cols) {
  const int band_size = kBandTiles * tiles_rows; // tiles in a full band
  const int band = t / band_size;
  const int first_col = band * kBandTiles;
  const int width = tiles_cols - first_col < kBandTiles ? tiles_cols - first_col : kBandTiles;
  const int i = t - band * band_size;
  return {i / width, first_col + i % width};
}

} // namespace transpose_variants
