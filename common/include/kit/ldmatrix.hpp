/// @file ldmatrix.hpp
/// @brief The bank model of `ldmatrix` (SASS LDSM): lanes give 16-byte row addresses, the
/// warp reads 1, 2 or 4 matrices of 8 x 8 b16 values.
///
/// The rule, read from the counters of an H100 (sm_90, GH100) with the address patterns of
/// lesson 08's LdsmCounters tests:
///
/// 5. `ldmatrix.sync.aligned.m8n8.xN.shared.b16` is N phases, one per matrix: lanes 8 i to
///    8 i + 7 give the 16-byte rows of matrix i, and the phase costs what rule 1 gives over
///    the words of those rows (one wavefront when the 8 rows cover 32 different banks). The
///    lanes beyond 8 N take no part. Ideal N. Unlike a 16-byte load there is no merge: lanes
///    l and l^1 on one row, a half-warp on one row, every lane on one row all still cost one
///    wavefront per matrix (N in all), where LDS.128 costs 2.
///
/// Which counters see LDSM (measured on the H100, CUDA 13; kit/ldsm_counters.hpp reads them):
///   - `smsp__sass_inst_executed_op_ldsm`: one per warp-wide ldmatrix (the requests);
///   - `smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm`: their wavefronts;
///   - `smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm`: wavefronts minus N
///     per request, N the matrices of the request (an x4 ldmatrix: wavefronts minus 4);
///   - `smsp__sass_inst_executed_op_shared_ld` and
///     `smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld` do NOT count LDSM (they
///     read 0 for a kernel of ldmatrix alone): the shared-memory session's load counts stay
///     the LDS instructions';
///   - the hardware `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld` and
///     `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld` DO count them (the same numbers);
///     GH100 has no `l1tex__..._op_ldsm` metric.
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

/// The model's verdict on one ldmatrix request (rule 5): the phases of a 16-byte access, one
/// per quarter-warp, without the load merges of rule 3 (the bank model applies those to loads
/// only, so the request is costed as a store and reported as a load).
KIT_HD constexpr BankReport analyze_ldsm(const WarpAccess& a) {
  BankReport r = analyze(a, SharedOp::store);
  r.op = SharedOp::load;
  return r;
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

/// Lane l (l < 8 matrices) gives the row at byte address `row_address(l)`: a pattern straight
/// from an address rule (the measurements behind the model's header).
template <class RowAddressFn>
LdsmPattern ldsm_address_pattern(std::string name, RowAddressFn&& row_address, int matrices = 4) {
  LdsmPattern p;
  p.name = std::move(name);
  p.matrices = matrices;
  std::uint32_t rows[kWarpSize] = {};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    rows[lane] = static_cast<std::uint32_t>(row_address(lane));
  }
  p.access = ldsm_access(rows, matrices);
  return p;
}

} // namespace kit
