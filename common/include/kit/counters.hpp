/// @file counters.hpp
/// @brief Shared-memory hardware counters of one kernel launch, read in-process through the
/// CUPTI Range Profiler.
///
/// A session is costly to open (a context, the profiler, a configuration image) and each
/// measurement replays the kernel once per counter pass, so measure many launches in one
/// session (table-driven tests). When the counters are not available, the session does not
/// fail: `ok()` is false and `refusal()` says why, and tests skip with that reason:
/// counters restricted to administrators, a virtualised / MIG / WSL / CMP /
/// confidential-computing device, another profiler attached (ncu, nsys), no driver, or a
/// toolkit too old for the Range Profiler API.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kit/trace.hpp"

namespace kit {

/// What the counters read for one launch (sums over every kernel the launch ran).
struct SharedCounters {
  SharedCounts sass;                        ///< Requests and wavefronts: the smsp__sass_* metrics.
  std::uint64_t load_wavefronts_l1tex = 0;  ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
  std::uint64_t store_wavefronts_l1tex = 0; ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
  std::uint64_t load_bank_conflicts = 0;  ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld
  std::uint64_t store_bank_conflicts = 0; ///< l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
  int kernels = 0;                        ///< Kernels (profiler ranges) in the launch.
  /// The requests and wavefronts are what the CPU run of the same kernel on the same shape
  /// recorded, not the counters' (a counter test where the grader found the counters refused:
  /// kit::testing::CounterTest::measure); the other counts are then 0.
  bool from_cpu_recording = false;
};

/// An in-process profiler session. Not copyable; one at a time per process.
class CounterSession {
public:
  /// The most kernels one measured launch may run.
  static constexpr int kMaxKernels = 64;

  /// Opens the session and measures a probe kernel; never throws for a refusal.
  /// The environment variable `KIT_COUNTERS_REFUSE=<reason>` forces the refusal path.
  CounterSession();
  /// Opens a session that reads `metrics` (full names, such as
  /// "smsp__sass_inst_executed_op_ldsm.sum") instead of the shared-memory set: a
  /// configuration of its own, so that sessions of the usual metrics pay no extra replay
  /// passes for them. Read it with measure_values(); measure() refuses. An empty list is the
  /// shared-memory set.
  explicit CounterSession(std::vector<std::string> metrics);
  ~CounterSession();
  CounterSession(const CounterSession&) = delete;
  CounterSession& operator=(const CounterSession&) = delete;

  /// True when counters can be read.
  bool ok() const;
  /// Why counters cannot be read (empty when ok()).
  const std::string& refusal() const;
  /// The chip the counters come from, e.g. "GH100".
  const std::string& chip() const;

  /// Runs `launch` (which launches one or more kernels) under the profiler and returns the
  /// counters summed over its kernels. Throws std::runtime_error when the session is not ok
  /// or the profiler fails.
  SharedCounters measure(const std::function<void()>& launch);

  /// Runs `launch` under the profiler and returns the session's metrics, in the order given,
  /// summed over its kernels (their count in `*kernels` when given). Throws like measure().
  std::vector<double> measure_values(const std::function<void()>& launch, int* kernels = nullptr);

  /// Runs `launch` under the profiler and returns the counters of each kernel it ran, in
  /// launch order: one session pass measures up to 64 patterns (the kit's pattern probe).
  /// Throws like measure().
  std::vector<SharedCounters> measure_each(const std::function<void()>& launch);

  /// True while any session is open in this process (the timer refuses to time then).
  static bool active();

  /// Holds `session`, open, after its test, for the next counter test of this process to take
  /// (kit::testing::CounterTest): opening one sets the profiler up and measures a probe kernel,
  /// a good part of a counter test's time. Only an open session of the shared-memory metrics
  /// is kept (another is closed), and one at a time: a kept session never runs beside anything
  /// that must not, since every new session and the timer close it first.
  static void keep(std::unique_ptr<CounterSession> session);
  /// The session keep() holds, handed over once; null when none is kept, or when
  /// KIT_COUNTERS_REFUSE or the small mode asks for a refusal (a new session then gives it).
  static std::unique_ptr<CounterSession> take_kept();
  /// Closes the session keep() holds, if any: what a program does before it starts a profiler
  /// in another process (ncu), and the kit's test environment at the end of the tests.
  static void close_kept();

private:
  std::vector<std::vector<double>> ranges(const std::function<void()>& launch);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace kit
