// The shared-memory instructions of lesson04::center_blocks, built from the layout function
// the kernel uses, with a label per kind of access.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/trace.hpp"

namespace lesson04::testing {

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

/// The trace of center_blocks(n) with partial-sum layout `slot_of`.
template <class Slot>
kit::Trace center_blocks_trace(int n, Slot slot_of) {
  kit::Trace t;
  auto bytes = [](int slot) { return static_cast<std::uint32_t>(slot * sizeof(float)); };
  auto add_block = [&](int count, std::uint64_t repeat) {
    for (int warp = 0; warp < kCenterWarps; ++warp) {
      t.add(
          kit::SharedOp::store, sizeof(float),
          [&](int lane) -> kit::LaneAddress {
            return lane == 0 ? kit::LaneAddress(bytes(slot_of(warp))) : std::nullopt;
          },
          repeat, label(CenterAccess::partial_store));
    }
    t.add(
        kit::SharedOp::load, sizeof(float),
        [&](int lane) -> kit::LaneAddress {
          return lane < kCenterWarps ? kit::LaneAddress(bytes(slot_of(lane))) : std::nullopt;
        },
        repeat, label(CenterAccess::partial_load));
    t.add(
        kit::SharedOp::store, sizeof(float),
        [&](int lane) -> kit::LaneAddress {
          return lane == 0 ? kit::LaneAddress(bytes(kMeanSlot)) : std::nullopt;
        },
        repeat, label(CenterAccess::mean_store));
    for (int warp = 0; warp < kCenterWarps; ++warp) {
      t.add(
          kit::SharedOp::load, sizeof(float),
          [&](int lane) -> kit::LaneAddress {
            return warp * kit::kWarpSize + lane < count ? kit::LaneAddress(bytes(kMeanSlot))
                                                        : std::nullopt;
          },
          repeat, label(CenterAccess::mean_load));
    }
  };
  const int full = n / kCenterBlockThreads;
  const int tail = n % kCenterBlockThreads;
  if (full > 0) {
    add_block(kCenterBlockThreads, static_cast<std::uint64_t>(full));
  }
  if (tail > 0) {
    add_block(tail, 1);
  }
  return t;
}

/// The trace of the student's center_blocks.
inline kit::Trace center_trace(int n) {
  return center_blocks_trace(n, partial_slot);
}

/// The trace of center_blocks as it was handed to you.
inline kit::Trace found_center_trace(int n) {
  return center_blocks_trace(n, found_partial_slot);
}

} // namespace lesson04::testing
