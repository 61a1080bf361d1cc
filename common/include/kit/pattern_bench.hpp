/// @file pattern_bench.hpp
/// @brief The pattern microbenchmark: every warp of every block issues the same warp
/// instruction (a kit::Pattern) over and over.
///
/// One kernel serves the counter tests (model against hardware), the lessons' demos and the
/// `bank-conflicts` command. The accesses are volatile PTX loads and stores: the compiler
/// can neither drop, merge nor hoist them, so the counters see exactly
/// blocks x warps x rounds x kPatternUnroll requests, and the timer sees the shared-memory
/// pipe, not the arithmetic around it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/pattern.hpp"
#include "kit/replay_plan.hpp"
#include "kit/timer.hpp"
#include "kit/trace.hpp"

namespace kit {

/// Accesses each thread makes per round (the kernel's unrolled inner loop).
inline constexpr int kPatternUnroll = 8;
/// Threads per block of the pattern kernel unless asked otherwise: 8 warps, so 8 blocks
/// reach 64 warps per SM.
inline constexpr int kPatternBlockThreads = 256;

/// The pattern kernel for one Pattern, with its launch, trace and timing helpers.
///
/// Loads: every warp reads the same offsets (reads cannot race); shared memory is filled
/// first with 16-byte stores, which the trace includes. Stores: each warp writes its own
/// copy of the region (a multiple of 128 bytes apart, so banks are unchanged), so warps
/// never write the same word.
class PatternBench {
public:
  /// Validates the pattern (width, alignment) and sizes its shared memory. Throws
  /// std::invalid_argument for an invalid pattern or one that needs more shared memory than
  /// a block may have.
  explicit PatternBench(Pattern p, int block_threads = kPatternBlockThreads);

  /// The pattern.
  const Pattern& pattern() const { return pattern_; }
  /// Threads per block.
  int block_threads() const { return block_threads_; }
  /// Dynamic shared memory per block, bytes.
  std::size_t smem_bytes() const { return smem_bytes_; }
  /// Raises the shared memory per block (to match another bench in a timing).
  void reserve_smem(std::size_t bytes);
  /// The kernel function (for occupancy).
  const void* kernel() const;

  /// Launches `blocks` blocks doing `rounds` rounds of kPatternUnroll accesses per thread.
  void run(int blocks, int rounds, cudaStream_t stream = nullptr) const;
  /// The launch as the timer wants it.
  Launch launch(int blocks, int rounds) const;
  /// Every shared-memory instruction run(blocks, rounds) issues (fill stores included).
  Trace trace(int blocks, int rounds) const;
  /// Requests of the pattern instruction alone in run(blocks, rounds).
  std::uint64_t pattern_requests(int blocks, int rounds) const;

private:
  Pattern pattern_;
  int block_threads_;
  std::size_t region_bytes_ = 0; // per-warp stride of the store regions (0 for loads)
  std::size_t smem_bytes_ = 0;
  DeviceBuffer<unsigned> sink_;
};

/// Two pattern launches ready for the timer: same block, same shared memory, a saturating
/// grid, and enough rounds that B runs for about `target_ms`.
struct PatternPair {
  Launch a;       ///< The pattern under test.
  Launch b;       ///< The baseline.
  int blocks = 0; ///< Blocks per launch.
  int rounds = 0; ///< Rounds per thread.
};

/// Prepares A and B for measure_slowdown / judge_slowdown (raises both to the same shared
/// memory, sizes the grid and calibrates the rounds on B).
PatternPair saturating_pair(PatternBench& a, PatternBench& b, double target_ms = 0.5);

/// What the counters read for one pattern's instruction, per request.
struct PatternReading {
  double wavefronts = 0;       ///< The smsp__sass_* wavefronts of its loads (or stores).
  double l1tex_wavefronts = 0; ///< The l1tex__* wavefronts of the same.
  double bank_conflicts = 0;   ///< l1tex__data_bank_conflicts_* of the same.
};

/// Measures each pattern in its pattern kernel, CounterSession::kMaxKernels to a profiler
/// pass: kernel k of a pass runs k + 1 blocks of one round, so each kernel's request count
/// says which pattern it is (a count that does not is an error: std::runtime_error). What
/// `bank-probe` and the kit's random counter test read.
std::vector<PatternReading> measure_patterns(CounterSession& session,
                                             const std::vector<Pattern>& patterns);

/// A trace's shared-memory instructions replayed with nothing else around them, in one launch
/// of the replay kernel: every warp of every block runs the trace's distinct instructions one
/// after another, each in a loop like the pattern kernel's, for rounds in proportion to how
/// often the trace issues it. Distinct means up to a shift of all of an instruction's
/// addresses by whole 128-byte rows, which keeps every lane's bank and every address lanes
/// share. Two replays timed against each other (saturating_replays) show what two kernels'
/// shared-memory accesses cost on this GPU whatever else the kernels do: the same loop, the
/// same kind of instructions, only the addresses differ. Loads read a region filled first
/// (16-byte stores); each warp stores into its own region after it, each store instruction
/// into a slot of its own.
class TraceReplay {
public:
  /// Collects the distinct instructions of `trace`. Throws std::invalid_argument for an empty
  /// trace, an invalid instruction, or one that needs more shared memory than a block has.
  TraceReplay(std::string name, const Trace& trace, int block_threads = kPatternBlockThreads);

  /// The name in messages ("score_rows4's shared accesses").
  const std::string& name() const { return name_; }
  /// Distinct instructions replayed.
  std::size_t instructions() const { return plan_.steps.size(); }
  /// How often the trace issues each distinct instruction, in the order replayed.
  const std::vector<std::uint64_t>& counts() const { return plan_.counts; }
  /// The plan: the distinct instructions and their places (replay_plan.hpp).
  const ReplayPlan& plan() const { return plan_; }
  /// Threads per block.
  int block_threads() const { return block_threads_; }
  /// Dynamic shared memory per block, bytes.
  std::size_t smem_bytes() const { return smem_bytes_; }
  /// Raises the shared memory per block (to match another replay in a timing).
  void reserve_smem(std::size_t bytes);
  /// The kernel function (for occupancy).
  const void* kernel() const;
  /// Sets the rounds of distinct instruction i to counts()[i] / `unit` x `scale` (`unit`
  /// divides every count). Throws std::invalid_argument when a count is not a multiple of
  /// `unit` or the rounds exceed 2^24.
  void set_rounds(std::uint64_t unit, std::uint64_t scale);
  /// Launches `blocks` blocks of the replay.
  void run(int blocks, cudaStream_t stream = nullptr) const;
  /// The launch as the timer wants it.
  Launch launch(int blocks) const;
  /// Every shared-memory instruction run(blocks) issues, fill stores included: each distinct
  /// instruction at the addresses it runs at, rounds x kPatternUnroll times per warp.
  Trace trace(int blocks) const;

private:
  std::string name_;
  int block_threads_;
  ReplayPlan plan_;
  std::size_t smem_bytes_ = 0;
  DeviceBuffer<ReplayStep> d_steps_;
  DeviceBuffer<std::uint32_t> d_offsets_;
  DeviceBuffer<unsigned> sink_;
};

/// Two replays ready for the timer: the same shared memory, a saturating grid, each distinct
/// instruction's rounds in proportion to its count (the same unit for both, so the ratio of
/// their times is the ratio of the two traces' shared-memory time), scaled so that B runs
/// for about `target_ms`.
struct ReplayPair {
  Launch a;       ///< The replay under test.
  Launch b;       ///< The baseline's.
  int blocks = 0; ///< Blocks per launch.
};

/// Prepares A and B for measure_slowdown / judge_slowdown (see ReplayPair).
ReplayPair saturating_replays(TraceReplay& a, TraceReplay& b, double target_ms = 0.5);

} // namespace kit
