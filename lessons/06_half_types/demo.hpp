/// @file lessons/06_half_types/demo.hpp
/// @brief Lesson 06: half-precision values in 4-byte banks. The demos (stride 1, stride 2,
/// the column of a 32 x 32 tile, stride 64) and the tile geometry of the exercise's
/// transposes.
///
/// Each demo is an index function (which element lane `l` reads) turned into a kit::Pattern
/// that the kit's microbenchmark kernel issues from every warp of a full GPU. You do not
/// edit this file; you predict what the demos cost (exercise.hpp) and the tests measure it.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>

#include "kit/config.hpp"
#include "kit/pattern.hpp"

namespace lesson06 {

// ---------------------------------------------------------------------------------------
// The demos. A half is 2 bytes: a 4-byte bank word holds two of them.
// ---------------------------------------------------------------------------------------

/// Side of the square tiles of this lesson: a tile row is one element per lane.
inline constexpr int kTileDim = 32;

/// Half stride 1: lane l reads half l. Lanes 2k and 2k + 1 read the two halves of word k:
/// 16 words, one per bank, shared by two lanes each.
KIT_HD constexpr unsigned half_stride_one_index(unsigned lane) {
  return lane;
}

/// Half stride 2: lane l reads half 2 l, the low half of word l: 32 words in 32 banks.
KIT_HD constexpr unsigned half_stride_two_index(unsigned lane) {
  return 2 * lane;
}

/// Column 0 of a 32 x 32 half tile: lane l reads half 32 l, byte 64 l, word 16 l. A tile
/// row is 64 bytes, half a row of banks: even lanes land in bank 0, odd lanes in bank 16,
/// 16 different words each.
KIT_HD constexpr unsigned half_column_index(unsigned lane) {
  return kTileDim * lane;
}

/// Column 0 of a 32 x 32 float tile, for comparison: lane l reads float 32 l, word 32 l,
/// bank 0 for every lane.
KIT_HD constexpr unsigned float_column_index(unsigned lane) {
  return kTileDim * lane;
}

/// Half stride 64: lane l reads half 64 l, byte 128 l: bank 0 for every lane, as for float
/// stride 32. What decides a conflict is the byte address, not the element count.
KIT_HD constexpr unsigned half_stride_64_index(unsigned lane) {
  return 64 * lane;
}

/// Float stride 1, the baseline of the float column.
KIT_HD constexpr unsigned float_stride_one_index(unsigned lane) {
  return lane;
}

/// half_stride_one_index as a pattern of 2-byte loads.
kit::Pattern half_stride_one_demo();
/// half_stride_two_index as a pattern of 2-byte loads.
kit::Pattern half_stride_two_demo();
/// half_column_index as a pattern of 2-byte loads.
kit::Pattern half_column_demo();
/// float_column_index as a pattern of 4-byte loads.
kit::Pattern float_column_demo();
/// half_stride_64_index as a pattern of 2-byte loads.
kit::Pattern half_stride_64_demo();
/// float_stride_one_index as a pattern of 4-byte loads.
kit::Pattern float_stride_one_demo();

// ---------------------------------------------------------------------------------------
// The geometry of the exercise's transposes (the same as lesson 05's): a block moves one
// kTileDim x kTileDim tile with kTileDim x kBlockRows threads; thread (x, y) is lane x of
// warp y.
// ---------------------------------------------------------------------------------------

/// A half-precision matrix operation: reads the `rows` x `cols` row-major halves at `in`,
/// writes the `cols` x `rows` transpose to `out` (device pointers) on `stream`.
using HalfMatrixOp = void (*)(const __half* in, __half* out, int rows, int cols,
                              cudaStream_t stream);

/// Warps per block.
inline constexpr int kBlockRows = 8;
/// Threads per block.
inline constexpr int kBlockThreads = kTileDim * kBlockRows;

static_assert(kTileDim == kit::kWarpSize, "one warp per tile row: lane x is tile column x");
static_assert(kTileDim % kBlockRows == 0, "every warp handles the same number of tile rows");

/// Tiles needed to cover `n` elements along one axis: the last one may be ragged.
KIT_HD constexpr int tiles_for(int n) {
  return (n + kTileDim - 1) / kTileDim;
}

/// Elements of the tile that starts at `origin` along an axis of `n` elements.
KIT_HD constexpr int tile_extent(int origin, int n) {
  return n - origin < kTileDim ? n - origin : kTileDim;
}

/// Offset of element (r, c) in a row-major matrix whose rows hold `ld` elements.
KIT_HD constexpr std::size_t matrix_index(int r, int c, int ld) {
  return static_cast<std::size_t>(r) * static_cast<std::size_t>(ld) + static_cast<std::size_t>(c);
}

/// The grid of the lesson's transposes: x over tile columns of the input, y over tile rows.
inline dim3 tile_grid(int rows, int cols) {
  return dim3(static_cast<unsigned>(tiles_for(cols)), static_cast<unsigned>(tiles_for(rows)));
}

/// The block of the lesson's transposes: kTileDim lanes by kBlockRows warps.
inline dim3 tile_block() {
  return dim3(kTileDim, kBlockRows);
}

} // namespace lesson06
