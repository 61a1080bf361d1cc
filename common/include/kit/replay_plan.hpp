/// @file replay_plan.hpp
/// @brief The plan of a trace replay (kit::TraceReplay, pattern_bench.hpp): a trace's distinct
/// instructions, how often each is issued, and where each runs in the replay kernel's shared
/// memory. Host code without CUDA, so the CPU tests hold the plan to its promises: every replayed
/// instruction costs the banks what the original does, and no two store instructions, no two
/// warps and no load and store share a byte.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"
#include "kit/trace.hpp"

namespace kit {

/// One distinct instruction of a replayed trace, as the replay kernel reads it.
struct ReplayStep {
  unsigned width = 4;  ///< Bytes per lane.
  unsigned store = 0;  ///< 1 for a store, 0 for a load.
  unsigned mask = 0;   ///< Active lanes.
  unsigned rounds = 0; ///< Rounds of kPatternUnroll accesses each thread makes.
};

/// The distinct instructions of a trace and their places in shared memory. Loads read one
/// region (the kernel fills it first); after it, each warp has a region of its own for stores,
/// in which each store instruction has a slot of its own.
struct ReplayPlan {
  std::vector<ReplayStep> steps;      ///< In the order the trace first issues them.
  std::vector<std::uint32_t> offsets; ///< 32 per step: each lane's byte offset in its region.
  std::vector<std::uint64_t> counts;  ///< How often the trace issues each step.
  std::size_t load_bytes = 0;         ///< The loads' region, a multiple of 128.
  std::size_t region_bytes = 0;       ///< Each warp's store region, a multiple of 128.

  /// Shared memory per block of `warps` warps.
  std::size_t smem_bytes(int warps) const {
    return load_bytes + region_bytes * static_cast<std::size_t>(warps);
  }
  /// Step `e` as warp `warp` issues it, at the byte addresses the replay kernel uses.
  WarpAccess access(std::size_t e, int warp) const {
    const ReplayStep& s = steps[e];
    WarpAccess a;
    a.width = static_cast<int>(s.width);
    a.mask = s.mask;
    const std::size_t base =
        s.store ? load_bytes + static_cast<std::size_t>(warp) * region_bytes : 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      a.address[lane] = static_cast<std::uint32_t>(
          base + offsets[e * kWarpSize + static_cast<std::size_t>(lane)]);
    }
    return a;
  }
};

/// The plan of `trace`: its distinct instructions, distinct up to a shift of all of an
/// instruction's addresses by whole 128-byte rows (which keeps every lane's bank and every
/// address lanes share), with their counts summed. Throws std::invalid_argument, naming
/// `name`, for an invalid instruction or an empty trace.
inline ReplayPlan plan_replay(const Trace& trace, const std::string& name) {
  const auto round_up = [](std::size_t v) {
    return (v + kWavefrontBytes - 1) / kWavefrontBytes * kWavefrontBytes;
  };
  ReplayPlan p;
  std::map<std::vector<std::uint32_t>, std::size_t> seen;
  for (const TraceEntry& e : trace.entries()) {
    const BankReport r = analyze(e.access, e.op);
    if (!r.ok()) {
      throw std::invalid_argument("replay '" + name + "': " + e.what + ": " + to_string(r.error));
    }
    std::uint32_t low = UINT32_MAX;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (e.access.active(lane)) {
        low = std::min(low, e.access.address[lane]);
      }
    }
    const std::uint32_t shift = low / kWavefrontBytes * kWavefrontBytes;
    std::vector<std::uint32_t> key = {static_cast<std::uint32_t>(e.op),
                                      static_cast<std::uint32_t>(e.access.width), e.access.mask};
    std::size_t extent = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const std::uint32_t a = e.access.active(lane) ? e.access.address[lane] - shift : 0;
      key.push_back(a);
      if (e.access.active(lane)) {
        extent = std::max<std::size_t>(extent, a + static_cast<std::size_t>(e.access.width));
      }
    }
    extent = round_up(extent);
    const bool store = e.op == SharedOp::store;
    const auto [it, fresh] = seen.emplace(key, p.steps.size());
    if (fresh) {
      ReplayStep step;
      step.width = static_cast<unsigned>(e.access.width);
      step.store = store ? 1u : 0u;
      step.mask = e.access.mask;
      p.steps.push_back(step);
      // Loads share the filled region; each store instruction has a slot of its own in its
      // warp's region, so no two instructions write one byte (no hazard for racecheck).
      const std::uint32_t slot = store ? static_cast<std::uint32_t>(p.region_bytes) : 0u;
      for (auto a = key.begin() + 3; a != key.end(); ++a) {
        p.offsets.push_back(*a + slot);
      }
      p.counts.push_back(0);
      if (store) {
        p.region_bytes += extent;
      } else {
        p.load_bytes = std::max(p.load_bytes, extent);
      }
    }
    p.counts[it->second] += e.repeat;
  }
  if (p.steps.empty()) {
    throw std::invalid_argument("replay '" + name + "': the trace has no instruction");
  }
  return p;
}

} // namespace kit
