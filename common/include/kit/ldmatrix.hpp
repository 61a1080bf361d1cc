/// @file ldmatrix.hpp
/// @brief The bank model of `ldmatrix` (SASS LDSM): lanes give 16-byte row addresses, the
/// warp reads 1, 2 or 4 matrices of 8 x 8 b16 values.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"
#include "kit/layout.hpp"

namespace kit {

/// Rows of one 8 x 8 b16 matrix, and lanes that give its row addresses.
inline constexpr int kLdsmRows = 8;
/// Bytes of one matrix row: 8 b16 values.
inline constexpr int kLdsmRowBytes = 16;

/// The active lanes of an ldmatrix of `matrices` matrices (.x1, .x2, .x4): lanes 0-7 give the
/// rows of matrix 0, lanes 8-15 those of matrix 1, and so on; the other lanes' addresses are
/// not read.
KIT_HD constexpr std::uint32_t ldsm_mask(int matrices) {
  return matrices >= 4 ? kFullMask : (1u << (matrices * kLdsmRows)) - 1u;
}

/// True for the matrix counts of ldmatrix: 1, 2 or 4.
KIT_HD constexpr bool is_valid_ldsm_count(int matrices) {
  return matrices == 1 || matrices == 2 || matrices == 4;
}

/// The request of one ldmatrix .x`matrices`: lane l's row address `row_address[l]` (bytes),
/// 16 bytes a row.
KIT_HD constexpr WarpAccess ldsm_access(const std::uint32_t (&row_address)[kWarpSize],
                                        int matrices) {
  WarpAccess a;
  a.width = kLdsmRowBytes;
  a.mask = ldsm_mask(matrices);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    a.address[lane] = a.active(lane) ? row_address[lane] : 0u;
  }
  return a;
}

/// The model's verdict on one ldmatrix request.
KIT_HD constexpr BankReport analyze_ldsm(const WarpAccess& a) {
  return analyze(a, SharedOp::store); // PRELIMINARY: quarter-warp phases, no merges
}

/// Wavefronts of one ldmatrix request (0 for an invalid one).
KIT_HD constexpr int ldsm_wavefronts(const WarpAccess& a) {
  const BankReport r = analyze_ldsm(a);
  return r.ok() ? r.wavefronts : 0;
}

/// One ldmatrix instruction, issued by every warp: the LDSM twin of kit::Pattern.
struct LdsmPattern {
  std::string name;  ///< For messages and tables.
  WarpAccess access; ///< Row addresses (bytes), the active lanes of .x1 / .x2 / .x4, width 16.
  int matrices = 4;  ///< 1, 2 or 4.
};

/// Lane l (l < 8 matrices) gives the row that starts at element `coord_of(l)` of `layout`:
/// the 8 b16 elements from there on, which the layout must keep side by side (a 16-byte chunk).
template <class Layout, class CoordFn>
LdsmPattern ldsm_pattern(std::string name, const Layout& layout, CoordFn&& coord_of,
                         int matrices = 4) {
  static_assert(sizeof(typename Layout::value_type) == 2, "ldmatrix .b16 reads 2-byte elements");
  LdsmPattern p;
  p.name = std::move(name);
  p.matrices = matrices;
  std::uint32_t rows[kWarpSize] = {};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const Coord c = coord_of(lane);
    rows[lane] = byte_offset(layout, c.row, c.col);
  }
  p.access = ldsm_access(rows, matrices);
  return p;
}

} // namespace kit
