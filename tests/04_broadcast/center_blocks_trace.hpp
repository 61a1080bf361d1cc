// The shared-memory instructions of lesson04::center_blocks, built from the partial-sum
// offsets the kernel uses, with a label per kind of access (host code: the CPU tests use it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/trace.hpp"

namespace lesson04::testing {

/// Every kind of access of center_blocks, in the kernel's order.
inline constexpr CenterAccess kCenterAccesses[] = {
    CenterAccess::partial_store, CenterAccess::partial_load, CenterAccess::mean_store,
    CenterAccess::mean_load};

/// The trace label of each kind of access.
inline const char* label(CenterAccess a) {
  switch (a) {
  case CenterAccess::partial_store:
    return "partial store";
  case CenterAccess::partial_load:
    return "partial load";
  case CenterAccess::mean_store:
    return "mean store";
  case CenterAccess::mean_load:
    return "mean load";
  case CenterAccess::none:
    break;
  }
  return "none";
}

} // namespace lesson04::testing

namespace lesson04 {

/// A CenterAccess as exercise.hpp spells it (kit::check_prediction writes a finding with it):
/// CenterAccess:: and its trace label with underscores.
inline std::string prediction_text(CenterAccess a) {
  std::string name = testing::label(a);
  std::replace(name.begin(), name.end(), ' ', '_');
  return "CenterAccess::" + name;
}

} // namespace lesson04

namespace lesson04::testing {

/// The trace of center_blocks(n) with warp w's partial sum at `offset_of(w)`. The kernel makes its
/// shared accesses with kit::st_shared / kit::ld_shared (one instruction each, never fused,
/// moved or dropped); every thread of every block reads the mean, past the end of the data
/// too, so a short last block issues what a full one does.
template <class OffsetFn>
kit::Trace center_blocks_trace(int n, OffsetFn offset_of) {
  kit::Trace t;
  auto bytes = [](int offset) { return static_cast<std::uint32_t>(offset * sizeof(float)); };
  const std::uint64_t blocks =
      static_cast<std::uint64_t>((n + kCenterBlockThreads - 1) / kCenterBlockThreads);
  for (int warp = 0; warp < kCenterWarps; ++warp) {
    t.add(
        kit::SharedOp::store, sizeof(float),
        [&](int lane) -> kit::LaneAddress {
          return lane == 0 ? kit::LaneAddress(bytes(offset_of(warp))) : std::nullopt;
        },
        blocks, label(CenterAccess::partial_store));
  }
  t.add(
      kit::SharedOp::load, sizeof(float),
      [&](int lane) -> kit::LaneAddress {
        return lane < kCenterWarps ? kit::LaneAddress(bytes(offset_of(lane))) : std::nullopt;
      },
      blocks, label(CenterAccess::partial_load));
  t.add(
      kit::SharedOp::store, sizeof(float),
      [&](int lane) -> kit::LaneAddress {
        return lane == 0 ? kit::LaneAddress(bytes(kMeanOffset)) : std::nullopt;
      },
      blocks, label(CenterAccess::mean_store));
  for (int warp = 0; warp < kCenterWarps; ++warp) {
    t.add(
        kit::SharedOp::load, sizeof(float),
        [&](int) -> kit::LaneAddress { return bytes(kMeanOffset); }, blocks,
        label(CenterAccess::mean_load));
  }
  return t;
}

/// The kind of access a trace entry of center_blocks_trace is (none for another label).
inline CenterAccess access_of(const kit::TraceEntry& e) {
  for (CenterAccess a : kCenterAccesses) {
    if (e.what == label(a)) {
      return a;
    }
  }
  return CenterAccess::none;
}

/// One line per kind of access of a center_blocks trace: the requests the launch makes (the
/// warp instructions it executes, over every warp and block), their wavefronts, and the
/// ideal, as `  <access>: <R> requests, <W> wavefronts (ideal <I>)`.
inline std::string costs_by_access(const kit::Trace& t) {
  std::ostringstream out;
  for (CenterAccess a : kCenterAccesses) {
    std::uint64_t requests = 0, wavefronts = 0, ideal = 0;
    for (const kit::TraceEntry& e : t.entries()) {
      if (access_of(e) == a) {
        const kit::BankReport r = kit::analyze(e.access, e.op);
        requests += e.repeat;
        wavefronts += static_cast<std::uint64_t>(r.wavefronts) * e.repeat;
        ideal += static_cast<std::uint64_t>(r.ideal) * e.repeat;
      }
    }
    out << "  " << label(a) << ": " << requests << " requests, " << wavefronts
        << " wavefronts (ideal " << ideal << ")\n";
  }
  return out.str();
}

/// The trace of the student's center_blocks.
inline kit::Trace center_trace(int n) {
  return center_blocks_trace(n, partial_offset);
}

/// The trace of center_blocks as it was handed to you.
inline kit::Trace found_center_trace(int n) {
  return center_blocks_trace(n, found_partial_offset);
}

} // namespace lesson04::testing
