/// @file lessons/10_measuring_right/exercise.hpp
/// @brief Lesson 10 exercise, Parts 1 and 2 (Part 3, the harness, is in exercise.cu). Parts 1
/// and 2 are checked on the CPU: by the bank model, and by the limits an SM must respect.
#pragma once

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson10 {

// Part 1: predict. Wavefronts of one request (4-byte loads: the ideal is 1).

/// Your prediction: the probe's column read of `float tile[32][32]` (lane l reads (l, c)).
inline constexpr int kPredictedConflictWavefronts = 0; // TODO
/// Your prediction: the same column read of `float tile[32][33]` (the twin).
inline constexpr int kPredictedTwinWavefronts = 0; // TODO
/// Your prediction: the ratio of the two, what a saturating harness should measure.
inline constexpr double kPredictedHarnessRatio = 0; // TODO
/// Your prediction: lane l reads word l * offset, offset 0 (the plain shape).
inline constexpr int kPredictedPlainOffset0Wavefronts = 0; // TODO
/// Your prediction: lane l reads word l * offset + 32 * l (the jagged shape), offset 2.
inline constexpr int kPredictedJaggedOffset2Wavefronts = 0; // TODO
/// Your prediction: the jagged shape at offset 0.
inline constexpr int kPredictedJaggedOffset0Wavefronts = 0; // TODO

// Part 2: how many blocks of a kernel an SM holds at once. Three limits apply (the probe's
// __launch_bounds__ keep its registers from being a fourth): threads, counted in whole warps
// (a block of 48 threads takes two warps); blocks; and shared memory, where every block also
// costs the SM `smem_reserved_per_block` bytes (a block that costs nothing meets no limit).

/// What one SM can hold, as cudaDeviceProp reports it.
struct SmLimits {
  int max_threads;             ///< maxThreadsPerMultiProcessor (2048 on an H100)
  int max_blocks;              ///< maxBlocksPerMultiProcessor (32 on an H100)
  int smem_bytes;              ///< sharedMemPerMultiprocessor (233472 on an H100)
  int smem_reserved_per_block; ///< reservedSharedMemPerBlock (1024 on an H100)
};

/// Blocks of `block_threads` threads using `smem_per_block` bytes of shared memory each
/// (static plus dynamic) that one SM holds at once: the largest count within every limit.
KIT_HD constexpr int resident_blocks(const SmLimits& sm, int block_threads, int smem_per_block) {
  return 1 + 0 * (sm.max_threads + block_threads + smem_per_block); // TODO
}

/// Warps one SM holds at once for that kernel.
KIT_HD constexpr int resident_warps(const SmLimits& sm, int block_threads, int smem_per_block) {
  return 1 + 0 * resident_blocks(sm, block_threads, smem_per_block); // TODO
}

/// Blocks of a grid that fills every one of `sm_count` SMs once with `blocks_per_sm` blocks.
KIT_HD constexpr int saturating_grid(int sm_count, int blocks_per_sm) {
  return 1 + 0 * (sm_count + blocks_per_sm); // TODO
}

// Part 3 (exercise.cu): your harness. It times the probe's conflict kernel against its twin
// with CUDA events, and launches them as planned by plan_harness().

/// What the harness times.
struct HarnessPlan {
  ProbeLaunch launch; ///< The launch of both probe kernels.
  int warmup = 0;     ///< Untimed launches of each kernel before the timed ones.
  int repeats = 1;    ///< Timed launches of each kernel.
};

/// What the harness measured.
struct HarnessResult {
  double conflict_ms = 0; ///< The conflict kernel's time per launch.
  double twin_ms = 0;     ///< The twin's time per launch.
  /// conflict_ms / twin_ms: the slowdown the harness shows.
  double ratio() const { return twin_ms > 0 ? conflict_ms / twin_ms : 0; }
};

/// The plan: which launch, how many warm-ups and repeats (exercise.cu).
HarnessPlan plan_harness();

/// Times Probe::conflict against Probe::twin as `plan` says: exactly plan.warmup +
/// plan.repeats launches of each, plan.launch every time (exercise.cu).
HarnessResult run_harness(const HarnessPlan& plan);

} // namespace lesson10
