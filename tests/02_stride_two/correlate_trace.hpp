// The shared-memory instructions of lesson02::correlate and of its twin, built from the same
// index functions the kernels use, and the launches the timer needs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/device.hpp"
#include "kit/timer.hpp"
#include "kit/trace.hpp"

namespace lesson02::testing {

/// The trace of a correlation kernel with the given layout, over n outputs. Every block
/// issues the same instructions: the kernels stage and read through kit::st_shared and
/// kit::ld_shared (one instruction each, never fused, moved or dropped), unconditionally
/// (zeros past the end of x; only the global store of the last block is masked). So each
/// entry repeats once per block, full or not.
template <class ReSlot, class ImSlot>
kit::Trace correlate_trace(int n, ReSlot re_slot_of, ImSlot im_slot_of, bool one_float2) {
  kit::Trace t;
  const std::uint64_t blocks = static_cast<std::uint64_t>((n + kBlockThreads - 1) / kBlockThreads);
  auto floats_at = [](int slot) { return static_cast<std::uint32_t>(slot * sizeof(float)); };
  auto add_pair = [&](kit::SharedOp op, int warp, int first_elem_of_lane0, const char* what) {
    auto elem = [&](int lane) { return first_elem_of_lane0 + warp * kit::kWarpSize + lane; };
    if (one_float2) {
      t.add(
          op, 2 * sizeof(float),
          [&](int lane) -> kit::LaneAddress { return floats_at(re_slot_of(elem(lane))); }, blocks,
          std::string(what) + " (re, im)");
    } else {
      t.add(
          op, sizeof(float),
          [&](int lane) -> kit::LaneAddress { return floats_at(re_slot_of(elem(lane))); }, blocks,
          std::string(what) + " re");
      t.add(
          op, sizeof(float),
          [&](int lane) -> kit::LaneAddress { return floats_at(im_slot_of(elem(lane))); }, blocks,
          std::string(what) + " im");
    }
  };
  for (int warp = 0; warp < kBlockThreads / kit::kWarpSize; ++warp) {
    for (int pass = 0; pass < kStagePasses; ++pass) {
      add_pair(kit::SharedOp::store, warp, pass * kBlockThreads, "stage");
    }
    for (int k = 0; k < kTaps; ++k) {
      add_pair(kit::SharedOp::load, warp, k, "tap");
    }
  }
  return t;
}

/// The trace of the student's correlate(n).
inline kit::Trace exercise_trace(int n) {
  return correlate_trace(n, re_slot, im_slot, kPairAccess == PairAccess::one_float2);
}

/// The trace of correlate_twin(n).
inline kit::Trace twin_trace(int n) {
  return correlate_trace(n, twin_re_slot, twin_im_slot, false);
}

/// The model's slowdown of correlate over its twin, for n outputs.
inline double model_ratio(int n) {
  return kit::model_ratio(exercise_trace(n), twin_trace(n));
}

/// Outputs for a timing: 32 full waves of blocks on this GPU.
inline int saturating_size() {
  constexpr int kWaves = 32;
  return kit::saturating_blocks(correlate_twin_kernel(), kBlockThreads, 0) * kBlockThreads * kWaves;
}

/// A launch of `run` as the timer wants it.
template <class Run>
kit::Launch launch(std::string name, const void* kernel, Run run) {
  kit::Launch l;
  l.name = std::move(name);
  l.kernel = kernel;
  l.block_threads = kBlockThreads;
  l.smem_bytes = 0; // the tiles are static shared memory, kTileFloats floats in both kernels
  l.run = run;
  return l;
}

} // namespace lesson02::testing
