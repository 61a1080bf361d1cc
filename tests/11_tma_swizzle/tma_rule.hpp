// The TMA's swizzle rule written out from its definition (16-byte chunks permuted within a
// 32/64/128-byte span by the address bits above it), as a function and as a layout: what the
// tests hold the layouts in demo.hpp and exercise.hpp to, and what the GPU tests find the
// hardware doing. Host code (the CPU tests use it too).
#pragma once

#include <cstdint>

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson11::testing {

/// Where the TMA puts byte `byte` of row `row` of a box whose rows are `row_bytes` long, in
/// `mode`, for a tile that starts on a kTileAlignment boundary: the 16-byte chunk index
/// within each span (address bits 4, 4-5 or 4-6) is XORed with address bits 7, 7-8 or 7-9.
constexpr int tma_byte_offset(SwizzleMode mode, int row_bytes, int row, int byte) {
  const int address = row * row_bytes + byte;
  const int chunk_bits = mode == SwizzleMode::b32    ? 1
                         : mode == SwizzleMode::b64  ? 2
                         : mode == SwizzleMode::b128 ? 3
                                                     : 0;
  const int mask = (1 << chunk_bits) - 1;
  return address ^ (((address >> 7) & mask) << 4);
}

/// The rule as a layout of a kBoxRows x Cols float box.
template <SwizzleMode Mode, int Cols>
struct TmaLayout {
  using value_type = float;
  static constexpr int kRows = kBoxRows;
  static constexpr int kCols = Cols;
  constexpr int operator()(int row, int col) const {
    return tma_byte_offset(Mode, Cols * static_cast<int>(sizeof(float)), row,
                           col * static_cast<int>(sizeof(float))) /
           static_cast<int>(sizeof(float));
  }
};

/// The 128B mode's box as the TMA writes it.
using Tma128Layout = TmaLayout<SwizzleMode::b128, kBox128Cols>;

} // namespace lesson11::testing
