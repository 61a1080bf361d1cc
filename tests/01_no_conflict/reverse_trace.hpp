// The shared-memory instructions of lesson01::reverse_blocks, built from the layout the kernel
// uses (stage_offset, reversed_thread): one store and one load per warp that has work (host
// code: the CPU tests use it too).
#pragma once

#include <cstdint>

#include <demo.hpp>
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
      // One 4-byte access of the warp: lane l's thread touches float offset_of(thread) of the
      // buffer, if the thread has an element.
      auto add = [&](kit::SharedOp op, auto offset_of, const char* what) {
        t.add(
            op, sizeof(float),
            [&](int lane) -> kit::LaneAddress {
              const int th = warp * kit::kWarpSize + lane;
              if (th >= count) {
                return std::nullopt;
              }
              return static_cast<std::uint32_t>(offset_of(th) * sizeof(float));
            },
            repeat, what);
      };
      add(
          kit::SharedOp::store, [](int th) { return stage_offset(th); }, "stage store");
      add(
          kit::SharedOp::load, [&](int th) { return stage_offset(reversed_thread(th, count)); },
          "reversed load");
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
