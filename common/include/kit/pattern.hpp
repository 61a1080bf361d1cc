/// @file pattern.hpp
/// @brief A pattern: one warp instruction (lane offsets, width, active lanes, load or store),
/// the unit of the demos, the model-against-counters suite and `bank-conflicts`.
///
/// Host code only: CPU tests build and judge patterns with the bank model alone.
/// kit/pattern_bench.hpp runs a pattern on the GPU, issued by every warp of a full launch.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace kit {

/// One warp instruction, issued by every warp.
struct Pattern {
  std::string name;             ///< For messages and tables ("float stride 2").
  WarpAccess access;            ///< Lane offsets (bytes), active lanes and width.
  SharedOp op = SharedOp::load; ///< Load or store.
};

/// Lane l reads (or writes) the element at offset `offset_of(l)` of an array of
/// `elem_bytes`-byte elements: a pattern straight from an offset rule (a layout gives such
/// offsets; layout_pattern takes the layout itself).
template <class OffsetFn>
Pattern offset_pattern(std::string name, int elem_bytes, OffsetFn offset_of,
                       SharedOp op = SharedOp::load) {
  Pattern p;
  p.name = std::move(name);
  p.op = op;
  p.access.width = elem_bytes;
  for (unsigned lane = 0; lane < static_cast<unsigned>(kWarpSize); ++lane) {
    p.access.address[lane] = static_cast<std::uint32_t>(offset_of(lane)) *
                             static_cast<std::uint32_t>(elem_bytes); // offset -> byte address
  }
  return p;
}

/// Lane l reads (or writes) element l * stride of an array of `elem_bytes`-byte elements.
inline Pattern strided_pattern(int elem_bytes, unsigned stride, SharedOp op = SharedOp::load,
                               unsigned mask = kFullMask) {
  const char* type = elem_bytes == 1   ? "u8"
                     : elem_bytes == 2 ? "half"
                     : elem_bytes == 4 ? "float"
                     : elem_bytes == 8 ? "double"
                                       : "float4";
  std::ostringstream name;
  name << type << " stride " << stride << (op == SharedOp::store ? " (store)" : "");
  Pattern p = offset_pattern(
      name.str(), elem_bytes, [stride](unsigned lane) { return lane * stride; }, op);
  p.access.mask = mask;
  return p;
}

/// Lane l reads (or writes) the element of `layout` at `coord_of(l)` (see kit::warp_access):
/// a pattern straight from a lesson's layout.
template <class Layout, class CoordFn>
Pattern layout_pattern(std::string name, const Layout& layout, CoordFn&& coord_of,
                       SharedOp op = SharedOp::load) {
  Pattern p;
  p.name = std::move(name);
  p.op = op;
  p.access = warp_access(layout, coord_of);
  return p;
}

/// Wavefronts of A's instruction over B's: the slowdown the model predicts when the
/// shared-memory pipe is the bottleneck.
inline double model_ratio(const Pattern& a, const Pattern& b) {
  const int wa = wavefronts(a.access, a.op);
  const int wb = wavefronts(b.access, b.op);
  return wb > 0 ? static_cast<double>(wa) / wb : 0.0;
}

} // namespace kit
