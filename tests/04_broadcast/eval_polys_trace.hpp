// The shared-memory instructions of lesson04::eval_polys and of its twin, built from the same
// index functions the kernels use, and the launches the timer needs.
#pragma once

#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/device.hpp"
#include "kit/timer.hpp"
#include "kit/trace.hpp"

namespace lesson04::testing {

/// Byte offset of a float index in a shared array.
inline std::uint32_t bytes_of(int float_index) {
  return static_cast<std::uint32_t>(float_index * sizeof(float));
}

/// Thread (x, y) of the 16 x 16 block is thread y * 16 + x; lane l of warp w is thread
/// 32 w + l, so lanes 0-15 have y = 2w and lanes 16-31 y = 2w + 1.
inline int block_row(int warp, int lane) {
  return (warp * kit::kWarpSize + lane) / kPointsPerTile;
}

/// The trace of an eval_polys kernel with table layout `slot_of`. The kernels make every table
/// access with kit::st_shared / kit::ld_shared (one 4-byte instruction each, never fused,
/// moved or dropped), and every block stages its table once and reads it for each of its
/// kPointTiles tiles of points unconditionally (zeros past the last polynomial and point; only
/// the global stores are masked). So each store repeats once per block, and each Horner step
/// once per block and tile of points.
template <class Slot>
kit::Trace eval_polys_trace(int n_polys, int n_points, Slot slot_of) {
  kit::Trace t;
  if (n_polys <= 0 || n_points <= 0) {
    return t;
  }
  const std::uint64_t blocks =
      static_cast<std::uint64_t>((n_points + kPointsPerBlock - 1) / kPointsPerBlock) *
      static_cast<std::uint64_t>((n_polys + kPolysPerBlock - 1) / kPolysPerBlock);
  for (int warp = 0; warp < kBlockThreads / kit::kWarpSize; ++warp) {
    for (int pass = 0; pass < kStagePasses; ++pass) {
      t.add(
          kit::SharedOp::store, sizeof(float),
          [&](int lane) -> kit::LaneAddress {
            const int e = warp * kit::kWarpSize + lane + pass * kBlockThreads;
            return bytes_of(slot_of(e / kCoefs, e % kCoefs));
          },
          blocks, "coefficient store");
    }
    for (int k = kCoefs - 1; k >= 0; --k) {
      t.add(
          kit::SharedOp::load, sizeof(float),
          [&](int lane) -> kit::LaneAddress { return bytes_of(slot_of(block_row(warp, lane), k)); },
          blocks* kPointTiles, "Horner step (coefficient " + std::to_string(k) + ")");
    }
  }
  return t;
}

/// The trace of the student's eval_polys.
inline kit::Trace exercise_trace(int n_polys, int n_points) {
  return eval_polys_trace(n_polys, n_points, coef_slot);
}

/// The trace of eval_polys_twin.
inline kit::Trace twin_trace(int n_polys, int n_points) {
  return eval_polys_trace(n_polys, n_points, twin_coef_slot);
}

/// The model's slowdown of eval_polys over its twin.
inline double model_ratio(int n_polys, int n_points) {
  return kit::model_ratio(exercise_trace(n_polys, n_points), twin_trace(n_polys, n_points));
}

/// A problem shape for a timing: 32 full waves of blocks on this GPU.
struct Shape {
  int polys;  ///< Polynomials.
  int points; ///< Points.
};
inline Shape saturating_shape() {
  constexpr int kBlockRows = 1024; // 16384 polynomials
  constexpr int kWaves = 32;
  const int wave = kit::saturating_blocks(eval_polys_twin_kernel(), kBlockThreads, 0);
  return {kBlockRows * kPolysPerBlock,
          (wave * kWaves + kBlockRows - 1) / kBlockRows * kPointsPerBlock};
}

/// A launch of `run` as the timer wants it.
template <class Run>
kit::Launch launch(std::string name, const void* kernel, Run run) {
  kit::Launch l;
  l.name = std::move(name);
  l.kernel = kernel;
  l.block_threads = kBlockThreads;
  l.smem_bytes = 0; // static shared memory, kTableCapacity floats in both kernels
  l.run = run;
  return l;
}

} // namespace lesson04::testing
