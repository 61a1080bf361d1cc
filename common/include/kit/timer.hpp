/// @file timer.hpp
/// @brief Slowdowns measured the way the hardware shows them: saturating launches, timed
/// with CUDA events, kernel A against kernel B in the same run.
///
/// A bank conflict costs wavefronts; it costs *time* only when the shared-memory pipe is the
/// bottleneck. One warp, or a launch too small to fill the GPU, hides most of it (a one-warp
/// launch shows a 32-way conflict as 1.1x to 5x). So the timer
///   - launches enough blocks to fill every SM at the kernel's occupancy,
///   - checks that both kernels have the same block shape, shared-memory size and occupancy,
///   - alternates A and B in a few runs, each run's first launch untimed (a launch that
///     follows a different kernel, or an idle GPU, starts late: on an H100, 10-35 us more
///     before a 0.4-1.4 ms baseline, while its blocks take the same cycles), and takes the
///     median of at least 10 timed launches of each.
/// judge_slowdown and judge_at_least hold what it measures against a test's bar under the one
/// timing policy (timing_policy.hpp): measure again before failing, and call a near miss on a
/// busy, throttled or unsteady GPU inconclusive.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kit/bands.hpp"
#include "kit/timing_policy.hpp"

namespace kit {

/// One kernel launch to time: how to run it and what the occupancy check needs.
struct Launch {
  std::string name;                      ///< For messages.
  const void* kernel = nullptr;          ///< The __global__ function (occupancy check).
  int block_threads = 0;                 ///< Threads per block.
  std::size_t smem_bytes = 0;            ///< Dynamic shared memory per block.
  std::function<void(cudaStream_t)> run; ///< Launches the kernel once on the stream.
};

/// Runs and repeats of one measurement.
struct TimerOptions {
  /// Runs of each kernel, A's and B's taking turns; each run starts with one untimed launch.
  int runs = 3;
  /// Timed launches of each kernel in all (at least 10), spread evenly over its runs.
  int repeats = 15;
};

/// The event-timed samples of one kernel.
struct Timing {
  double median_ms = 0; ///< Median launch time.
  double min_ms = 0;    ///< Fastest launch.
  double max_ms = 0;    ///< Slowest launch.
  /// (max - min) / median: how steady the samples were.
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0; }
};

/// Kernel A's time over kernel B's, measured in one run.
struct Slowdown {
  double ratio = 0;      ///< median(A) / median(B).
  Timing a;              ///< Samples of A.
  Timing b;              ///< Samples of B.
  int blocks_per_sm = 0; ///< Resident blocks per SM (same for both; 0 from measure_ratio).
  int warps_per_sm = 0;  ///< Resident warps per SM (same for both; 0 from measure_ratio).
};

/// Resident blocks per SM of a kernel at this block size and shared memory (throws CudaError).
int blocks_per_sm(const void* kernel, int block_threads, std::size_t smem_bytes);

/// A grid that fills every SM of the device at the kernel's occupancy: one full wave.
int saturating_blocks(const void* kernel, int block_threads, std::size_t smem_bytes);

/// Times one launch: the median of `repeats` timed launches, in `runs` runs that each start
/// with an untimed one.
Timing time_launch(const Launch& l, const TimerOptions& opt = {});

/// Times A against B, their runs taking turns (TimerOptions), with no check that the two are alike:
/// for a ratio between different kinds of work (a transpose against a device-to-device cudaMemcpy
/// of the same bytes, one transpose against another), where the ratio is a measured fact to
/// hold against a threshold, not a shared-memory slowdown to hold against the model. The
/// launches may be anything that runs on the stream (Launch::kernel may be null); the result's
/// blocks_per_sm and warps_per_sm are 0. Throws std::logic_error while a counter session is
/// active.
Slowdown measure_ratio(const Launch& a, const Launch& b, const TimerOptions& opt = {});

/// Times A against B, their runs taking turns (measure_ratio), after checking that the two share
/// block shape, shared memory and occupancy, so that the ratio shows the shared-memory work
/// alone. Throws std::logic_error when they differ, or while a counter session is active (the
/// profiler serialises and replays kernels: its timings mean nothing).
Slowdown measure_slowdown(const Launch& a, const Launch& b, const TimerOptions& opt = {});

/// Why timings on this GPU cannot be trusted right now, if they cannot: another process is
/// using the GPU, or its clocks are held down (thermal, power brake, hardware slowdown).
/// Read through NVML when the driver has it; nullopt when nothing is seen.
std::optional<std::string> gpu_contention();

/// Warps per SM below which a conflict's slowdown cannot show (on an H100, one warp shows a
/// fraction of a wide conflict's slowdown, 16 warps most of it, 64 warps all but a little:
/// lesson 10 measures it).
inline constexpr int kMinWarpsPerSmForSlowdown = 32;

/// The outcome of holding a measured slowdown against the model.
struct SlowdownVerdict {
  /// What the measurement says about the model: pass (inside the band), fail (outside it on
  /// a quiet GPU, every attempt), inconclusive (outside it, but the GPU was busy, throttled
  /// or unsteady), unsupported (too few warps per SM fit to show the ratio).
  using Kind = Verdict;
  Kind kind = Kind::fail; ///< The outcome.
  double model_ratio = 0; ///< The model's ratio r.
  Band band{};            ///< The acceptable interval around r.
  Slowdown last{};        ///< The last measurement.
  int attempts = 0;       ///< Measurements made.
  std::string message;    ///< Expected, measured, and the usual cause when it missed.

  /// measured / model.
  double fidelity() const { return model_ratio > 0 ? last.ratio / model_ratio : 0; }
};

/// Measures A against B (measure_slowdown) and judges the ratio against the model's
/// `model_ratio` under the timing policy: measured again (up to kSlowdownAttempts times)
/// before a miss fails; any miss of the band is near, so inconclusive on a busy, throttled or
/// unsteady GPU.
SlowdownVerdict judge_slowdown(const Launch& a, const Launch& b, double model_ratio,
                               const TimerOptions& opt = {});

/// The outcome of holding a measured value against the least value a test accepts.
struct AtLeastVerdict {
  Verdict kind = Verdict::fail; ///< The outcome.
  double bar = 0;               ///< The least acceptable value.
  double best = 0;              ///< The best value measured.
  Slowdown measured{};          ///< The measurement that gave `best`.
  int attempts = 0;             ///< Measurements made.
  std::string message;          ///< Measured, expected, and why a miss is inconclusive.
};

/// Measures A against B (measure_ratio) and holds `value(measurement)` (a share of B's speed,
/// a speed-up, ...) against the least acceptable `bar` under the timing policy: measured
/// again (up to kSlowdownAttempts times) before a miss fails; a miss is inconclusive when the
/// best value reached kNearMissFraction of the bar and the GPU was busy, throttled or
/// unsteady. `what` names the value in the message.
AtLeastVerdict judge_at_least(const Launch& a, const Launch& b,
                              const std::function<double(const Slowdown&)>& value, double bar,
                              const std::string& what, const TimerOptions& opt = {});

} // namespace kit
