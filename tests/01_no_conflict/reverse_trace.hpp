// The shared-memory instructions of lesson01::reverse_blocks, built from the same index
// functions the kernel uses: one store and one load per warp that has work.
#pragma once

#include <algorithm>

#include <exercise.hpp>

#include "kit/trace.hpp"

namespace lesson01::testing {

/// The trace of reverse_blocks(in, out, n).
inline kit::Trace reverse_trace(int n) {
  kit::Trace t;
  // All full blocks issue the same instructions; only the last block may be short.
  const int full = n / kBlockThreads;
  const int tail = n % kBlockThreads;
  auto add_block = [&](int count, std::uint64_t repeat) {
    for (int warp = 0; warp < kBlockThreads / kit::kWarpSize; ++warp) {
      auto thread = [&](int lane) { return warp * kit::kWarpSize + lane; };
      t.add(
          kit::SharedOp::store, sizeof(float),
          [&](int lane) -> kit::LaneAddress {
            const int th = thread(lane);
            if (th >= count) {
              return std::nullopt;
            }
            return static_cast<std::uint32_t>(stage_slot(th) * sizeof(float));
          },
          repeat, "stage store");
      t.add(
          kit::SharedOp::load, sizeof(float),
          [&](int lane) -> kit::LaneAddress {
            const int th = thread(lane);
            if (th >= count) {
              return std::nullopt;
            }
            return static_cast<std::uint32_t>(stage_slot(reversed_thread(th, count)) *
                                              sizeof(float));
          },
          repeat, "reversed load");
    }
  };
  if (full > 0) {
    add_block(kBlockThreads, static_cast<std::uint64_t>(full));
  }
  if (tail > 0) {
    add_block(tail, 1);
  }
  return t;
}

} // namespace lesson01::testing
