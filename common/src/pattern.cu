#include "kit/pattern_bench.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/cuda_check.hpp"
#include "kit/device.hpp"

namespace kit {
namespace {

// The most rounds one replayed instruction runs per launch (TraceReplay::set_rounds).
constexpr std::uint64_t kMaxReplayRounds = 1u << 24;

struct PatternArgs {
  unsigned offset[kWarpSize]; // byte offset of each lane
  unsigned mask;              // active lanes
  unsigned region_bytes;      // per-warp region stride (stores), 0 for loads
  unsigned fill_vec16;        // 16-byte words to fill before loading (0 for stores)
  int rounds;
  unsigned* sink;
};

template <int W>
__device__ __forceinline__ unsigned load_shared(unsigned addr) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if constexpr (W == 1) {
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(a) : "r"(addr));
  } else if constexpr (W == 2) {
    unsigned short h = 0;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(h) : "r"(addr));
    a = h;
  } else if constexpr (W == 4) {
    asm volatile("ld.volatile.shared.b32 %0, [%1];" : "=r"(a) : "r"(addr));
  } else if constexpr (W == 8) {
    asm volatile("ld.volatile.shared.v2.b32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr));
  } else {
    asm volatile("ld.volatile.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                 : "r"(addr));
  }
  return a ^ b ^ c ^ d;
}

template <int W>
__device__ __forceinline__ void store_shared(unsigned addr, unsigned v) {
  if constexpr (W == 1) {
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(addr), "r"(v));
  } else if constexpr (W == 2) {
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(addr),
                 "h"(static_cast<unsigned short>(v)));
  } else if constexpr (W == 4) {
    asm volatile("st.volatile.shared.b32 [%0], %1;" ::"r"(addr), "r"(v));
  } else if constexpr (W == 8) {
    asm volatile("st.volatile.shared.v2.b32 [%0], {%1, %2};" ::"r"(addr), "r"(v), "r"(v + 1));
  } else {
    asm volatile("st.volatile.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v),
                 "r"(v + 1), "r"(v + 2), "r"(v + 3));
  }
}

template <int W, bool Store>
__global__ void pattern_kernel(const PatternArgs args) {
  extern __shared__ uint4 smem[];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  // Fill what the loads will read (16-byte stores, conflict-free), so no load reads
  // uninitialised memory.
  for (unsigned i = threadIdx.x; i < args.fill_vec16; i += blockDim.x) {
    store_shared<16>(base + 16u * i, i);
  }
  __syncthreads();
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;
  unsigned acc = lane;
  if ((args.mask >> lane) & 1u) {
    const unsigned addr = base + warp * args.region_bytes + args.offset[lane];
    for (int r = 0; r < args.rounds; ++r) {
#pragma unroll
      for (int u = 0; u < kPatternUnroll; ++u) {
        if constexpr (Store) {
          store_shared<W>(addr, acc + u);
        } else {
          acc ^= load_shared<W>(addr);
        }
      }
      acc += 1;
    }
  }
  // Never true in practice; makes every loaded value live.
  if (acc == 0xdeadbeefu && args.sink) {
    args.sink[0] = acc;
  }
}

struct ReplayArgs {
  const ReplayStep* steps;
  const std::uint32_t* offsets; // [n][kWarpSize]
  int n;
  unsigned load_bytes;   // the loads' region, filled first; the store regions follow it
  unsigned region_bytes; // each warp's store region
  unsigned* sink;
};

/// Accesses per round of the replay kernel for `W`-byte accesses: 32 bytes a lane, so that the
/// loads in flight fit the 32 registers that let 64 warps share an SM.
template <int W>
inline constexpr int kReplayUnroll = W >= 16  ? 2
                                     : W == 8 ? 4
                                              : kPatternUnroll;

/// `rounds` rounds of kPatternUnroll accesses at `addr` (in loops of kReplayUnroll<W>), as the
/// pattern kernel makes them.
template <int W, bool Store>
__device__ __forceinline__ unsigned repeat_access(unsigned addr, unsigned rounds, unsigned acc) {
  const unsigned loops = rounds * (kPatternUnroll / kReplayUnroll<W>);
  for (unsigned r = 0; r < loops; ++r) {
#pragma unroll
    for (int u = 0; u < kReplayUnroll<W>; ++u) {
      if constexpr (Store) {
        store_shared<W>(addr, acc + u);
      } else {
        acc ^= load_shared<W>(addr);
      }
    }
    acc += 1;
  }
  return acc;
}

// At most 32 registers a thread, so 64 warps fit an SM as in the pattern kernel (on an
// architecture that holds 2048 threads; the others, as many as they hold).
__global__ void __launch_bounds__(1024, min_blocks_per_sm(1024, 2))
    replay_kernel(const ReplayArgs args) {
  extern __shared__ uint4 smem[];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  for (unsigned i = threadIdx.x; i < args.load_bytes / 16u; i += blockDim.x) {
    store_shared<16>(base + 16u * i, i);
  }
  __syncthreads();
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;
  unsigned acc = lane;
  for (int e = 0; e < args.n; ++e) {
    const ReplayStep s = args.steps[e];
    if (((s.mask >> lane) & 1u) == 0) {
      continue;
    }
    const unsigned offset = args.offsets[e * kWarpSize + lane];
    const unsigned addr =
        base + offset + (s.store ? args.load_bytes + warp * args.region_bytes : 0u);
    // One case per width and op, spelled out: a helper switch per op made ptxas spill (20 bytes
    // at 32 registers), and spills in this loop would time local memory, not the banks.
    switch (s.width * 2 + s.store) {
    case 2:
      acc = repeat_access<1, false>(addr, s.rounds, acc);
      break;
    case 3:
      acc = repeat_access<1, true>(addr, s.rounds, acc);
      break;
    case 4:
      acc = repeat_access<2, false>(addr, s.rounds, acc);
      break;
    case 5:
      acc = repeat_access<2, true>(addr, s.rounds, acc);
      break;
    case 8:
      acc = repeat_access<4, false>(addr, s.rounds, acc);
      break;
    case 9:
      acc = repeat_access<4, true>(addr, s.rounds, acc);
      break;
    case 16:
      acc = repeat_access<8, false>(addr, s.rounds, acc);
      break;
    case 17:
      acc = repeat_access<8, true>(addr, s.rounds, acc);
      break;
    case 32:
      acc = repeat_access<16, false>(addr, s.rounds, acc);
      break;
    default:
      acc = repeat_access<16, true>(addr, s.rounds, acc);
      break;
    }
  }
  // Never true in practice; makes every loaded value live.
  if (acc == 0xdeadbeefu && args.sink) {
    args.sink[0] = acc;
  }
}

template <bool Store>
const void* kernel_for_width(int width) {
  switch (width) {
  case 1:
    return reinterpret_cast<const void*>(&pattern_kernel<1, Store>);
  case 2:
    return reinterpret_cast<const void*>(&pattern_kernel<2, Store>);
  case 4:
    return reinterpret_cast<const void*>(&pattern_kernel<4, Store>);
  case 8:
    return reinterpret_cast<const void*>(&pattern_kernel<8, Store>);
  default:
    return reinterpret_cast<const void*>(&pattern_kernel<16, Store>);
  }
}

/// The fill loop both kernels run before their accesses, as trace entries: thread i of each of
/// `blocks` blocks stores 16 bytes at 16 * (i + k * blockDim), over the first `bytes` bytes.
void add_fill(Trace& t, std::size_t bytes, int block_threads, int blocks) {
  const std::size_t fill = bytes / 16;
  const int warps = block_threads / kWarpSize;
  for (std::size_t start = 0; start < fill; start += static_cast<std::size_t>(block_threads)) {
    for (int w = 0; w < warps; ++w) {
      t.add(
          SharedOp::store, 16,
          [&](int lane) -> LaneAddress {
            const std::size_t i = start + static_cast<std::size_t>(w * kWarpSize + lane);
            return i < fill ? LaneAddress(static_cast<std::uint32_t>(16 * i)) : std::nullopt;
          },
          static_cast<std::uint64_t>(blocks), "fill");
    }
  }
}

std::size_t round_up(std::size_t v, std::size_t m) {
  return (v + m - 1) / m * m;
}

} // namespace

PatternBench::PatternBench(Pattern p, int block_threads)
    : pattern_(std::move(p)), block_threads_(block_threads) {
  const BankReport r = analyze(pattern_.access, pattern_.op);
  if (!r.ok()) {
    throw std::invalid_argument("pattern '" + pattern_.name + "': " + to_string(r.error));
  }
  if (block_threads_ <= 0 || block_threads_ % kWarpSize != 0 || block_threads_ > 1024) {
    throw std::invalid_argument("pattern block size must be a multiple of 32 up to 1024");
  }
  std::size_t extent = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (pattern_.access.active(lane)) {
      extent = std::max<std::size_t>(extent, pattern_.access.address[lane] + pattern_.access.width);
    }
  }
  extent = round_up(std::max<std::size_t>(extent, 16), kWavefrontBytes);
  const std::size_t warps = static_cast<std::size_t>(block_threads_ / kWarpSize);
  if (pattern_.op == SharedOp::store) {
    region_bytes_ = extent;
    smem_bytes_ = extent * warps;
  } else {
    smem_bytes_ = extent;
  }
  const std::size_t limit = 227 * 1024; // the largest opt-in block allocation on sm_90
  if (smem_bytes_ > limit) {
    std::ostringstream m;
    m << "pattern '" << pattern_.name << "' needs " << smem_bytes_
      << " bytes of shared memory per block (more than a block can have)";
    throw std::invalid_argument(m.str());
  }
  sink_ = DeviceBuffer<unsigned>(1);
}

void PatternBench::reserve_smem(std::size_t bytes) {
  smem_bytes_ = std::max(smem_bytes_, round_up(bytes, 16));
}

const void* PatternBench::kernel() const {
  return pattern_.op == SharedOp::store ? kernel_for_width<true>(pattern_.access.width)
                                        : kernel_for_width<false>(pattern_.access.width);
}

void PatternBench::run(int blocks, int rounds, cudaStream_t stream) const {
  PatternArgs args{};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    args.offset[lane] = pattern_.access.address[lane];
  }
  args.mask = pattern_.access.mask;
  args.region_bytes = static_cast<unsigned>(region_bytes_);
  args.fill_vec16 = pattern_.op == SharedOp::load ? static_cast<unsigned>(smem_bytes_ / 16) : 0;
  args.rounds = rounds;
  args.sink = sink_.get();
  const void* fn = kernel();
  if (smem_bytes_ > 48 * 1024) {
    CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem_bytes_)));
  }
  void* params[] = {&args};
  CUDA_CHECK(cudaLaunchKernel(fn, dim3(blocks), dim3(block_threads_), params, smem_bytes_, stream));
}

Launch PatternBench::launch(int blocks, int rounds) const {
  Launch l;
  l.name = pattern_.name;
  l.kernel = kernel();
  l.block_threads = block_threads_;
  l.smem_bytes = smem_bytes_;
  l.run = [this, blocks, rounds](cudaStream_t s) { run(blocks, rounds, s); };
  return l;
}

std::uint64_t PatternBench::pattern_requests(int blocks, int rounds) const {
  if (pattern_.access.mask == 0) {
    return 0;
  }
  return static_cast<std::uint64_t>(blocks) * (block_threads_ / kWarpSize) *
         static_cast<std::uint64_t>(rounds) * kPatternUnroll;
}

Trace PatternBench::trace(int blocks, int rounds) const {
  Trace t;
  const int warps = block_threads_ / kWarpSize;
  if (pattern_.op == SharedOp::load) {
    add_fill(t, smem_bytes_, block_threads_, blocks);
  }
  if (pattern_.access.mask != 0) {
    for (int w = 0; w < warps; ++w) {
      WarpAccess a = pattern_.access;
      for (int lane = 0; lane < kWarpSize; ++lane) {
        a.address[lane] += static_cast<std::uint32_t>(w * region_bytes_);
      }
      t.add(pattern_.op, a,
            static_cast<std::uint64_t>(blocks) * static_cast<std::uint64_t>(rounds) *
                kPatternUnroll,
            pattern_.name);
    }
  }
  return t;
}

PatternPair saturating_pair(PatternBench& a, PatternBench& b, double target_ms) {
  const std::size_t smem = std::max(a.smem_bytes(), b.smem_bytes());
  a.reserve_smem(smem);
  b.reserve_smem(smem);
  PatternPair p;
  p.blocks = saturating_blocks(b.kernel(), b.block_threads(), b.smem_bytes());
  if (small_mode()) {
    p.rounds = 1;
  } else {
    // Calibrate on the baseline: time a short run and scale to the target.
    constexpr int kProbeRounds = 64;
    const Timing t = time_launch(b.launch(p.blocks, kProbeRounds), {1, 10});
    const double scale = t.median_ms > 0 ? target_ms / t.median_ms : 1.0;
    p.rounds = static_cast<int>(std::clamp(std::lround(kProbeRounds * scale), 16L, 1L << 16));
  }
  p.a = a.launch(p.blocks, p.rounds);
  p.b = b.launch(p.blocks, p.rounds);
  return p;
}

TraceReplay::TraceReplay(std::string name, const Trace& trace, int block_threads)
    : name_(std::move(name)), block_threads_(block_threads) {
  if (block_threads_ <= 0 || block_threads_ % kWarpSize != 0 || block_threads_ > 1024) {
    throw std::invalid_argument("replay block size must be a multiple of 32 up to 1024");
  }
  plan_ = plan_replay(trace, name_);
  smem_bytes_ = plan_.smem_bytes(block_threads_ / kWarpSize);
  const std::size_t limit = 227 * 1024; // the largest opt-in block allocation on sm_90
  if (smem_bytes_ > limit) {
    throw std::invalid_argument("replay '" + name_ + "' needs " + std::to_string(smem_bytes_) +
                                " bytes of shared memory per block (more than a block can have)");
  }
  d_offsets_ = DeviceBuffer<std::uint32_t>(plan_.offsets);
  d_steps_ = DeviceBuffer<ReplayStep>(plan_.steps.size()); // set_rounds fills it
  sink_ = DeviceBuffer<unsigned>(1);
  set_rounds(std::accumulate(plan_.counts.begin(), plan_.counts.end(), std::uint64_t{0},
                             [](std::uint64_t g, std::uint64_t c) { return std::gcd(g, c); }),
             1);
}

void TraceReplay::reserve_smem(std::size_t bytes) {
  smem_bytes_ = std::max(smem_bytes_, round_up(bytes, 16));
}

const void* TraceReplay::kernel() const {
  return reinterpret_cast<const void*>(&replay_kernel);
}

void TraceReplay::set_rounds(std::uint64_t unit, std::uint64_t scale) {
  for (std::size_t i = 0; i < plan_.steps.size(); ++i) {
    if (unit == 0 || plan_.counts[i] % unit != 0 ||
        plan_.counts[i] / unit > kMaxReplayRounds / std::max<std::uint64_t>(scale, 1)) {
      throw std::invalid_argument("replay '" + name_ + "': cannot run " +
                                  std::to_string(plan_.counts[i]) + " issues in rounds of " +
                                  std::to_string(unit) + " x " + std::to_string(scale));
    }
    plan_.steps[i].rounds = static_cast<unsigned>(plan_.counts[i] / unit * scale);
  }
  d_steps_.upload(plan_.steps);
}

void TraceReplay::run(int blocks, cudaStream_t stream) const {
  ReplayArgs args{};
  args.steps = d_steps_.get();
  args.offsets = d_offsets_.get();
  args.n = static_cast<int>(plan_.steps.size());
  args.load_bytes = static_cast<unsigned>(plan_.load_bytes);
  args.region_bytes = static_cast<unsigned>(plan_.region_bytes);
  args.sink = sink_.get();
  const void* fn = kernel();
  if (smem_bytes_ > 48 * 1024) {
    CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem_bytes_)));
  }
  void* params[] = {&args};
  CUDA_CHECK(cudaLaunchKernel(fn, dim3(blocks), dim3(block_threads_), params, smem_bytes_, stream));
}

Launch TraceReplay::launch(int blocks) const {
  Launch l;
  l.name = name_;
  l.kernel = kernel();
  l.block_threads = block_threads_;
  l.smem_bytes = smem_bytes_;
  l.run = [this, blocks](cudaStream_t s) { run(blocks, s); };
  return l;
}

Trace TraceReplay::trace(int blocks) const {
  Trace t;
  const int warps = block_threads_ / kWarpSize;
  add_fill(t, plan_.load_bytes, block_threads_, blocks); // over the loads' region
  for (std::size_t e = 0; e < plan_.steps.size(); ++e) {
    const ReplayStep& s = plan_.steps[e];
    for (int w = 0; w < warps; ++w) {
      t.add(s.store ? SharedOp::store : SharedOp::load, plan_.access(e, w),
            static_cast<std::uint64_t>(blocks) * s.rounds * kPatternUnroll, name_);
    }
  }
  return t;
}

ReplayPair saturating_replays(TraceReplay& a, TraceReplay& b, double target_ms) {
  if (a.block_threads() != b.block_threads()) {
    throw std::invalid_argument("replays '" + a.name() + "' and '" + b.name() +
                                "' must share their block size");
  }
  const std::size_t smem = std::max(a.smem_bytes(), b.smem_bytes());
  a.reserve_smem(smem);
  b.reserve_smem(smem);
  // One unit for both: each distinct instruction runs count / unit rounds in both replays.
  std::uint64_t unit = 0;
  std::uint64_t most = 1;
  for (const TraceReplay* r : {&a, &b}) {
    for (std::uint64_t c : r->counts()) {
      unit = std::gcd(unit, c);
      most = std::max(most, c);
    }
  }
  ReplayPair p;
  p.blocks = saturating_blocks(b.kernel(), b.block_threads(), b.smem_bytes());
  std::uint64_t scale = 1;
  if (!small_mode()) {
    // Scale B up to about target_ms. A short probe is mostly launch overhead, so one step from
    // it undershoots (the timer test's replay once ran B for 46 us of a 500 us target): time again
    // after each step until B takes at least half the target.
    for (int step = 0; step < 4; ++step) {
      b.set_rounds(unit, scale);
      const Timing t = time_launch(b.launch(p.blocks), {1, 10});
      if (!(t.median_ms > 0) || t.median_ms >= target_ms / 2) {
        break;
      }
      const double grow = std::clamp(target_ms / t.median_ms, 2.0, 1024.0);
      scale = std::min(static_cast<std::uint64_t>(std::llround(static_cast<double>(scale) * grow)),
                       std::max<std::uint64_t>(kMaxReplayRounds / (most / unit), 1));
    }
  }
  a.set_rounds(unit, scale);
  b.set_rounds(unit, scale);
  p.a = a.launch(p.blocks);
  p.b = b.launch(p.blocks);
  return p;
}

std::vector<PatternReading> measure_patterns(CounterSession& session,
                                             const std::vector<Pattern>& patterns) {
  std::vector<PatternReading> out;
  const std::size_t per_pass = static_cast<std::size_t>(CounterSession::kMaxKernels);
  for (std::size_t first = 0; first < patterns.size(); first += per_pass) {
    const std::size_t n = std::min(per_pass, patterns.size() - first);
    std::vector<std::unique_ptr<PatternBench>> benches;
    for (std::size_t k = 0; k < n; ++k) {
      benches.push_back(std::make_unique<PatternBench>(patterns[first + k]));
    }
    const std::vector<SharedCounters> each = session.measure_each([&] {
      for (std::size_t k = 0; k < n; ++k) {
        benches[k]->run(static_cast<int>(k) + 1, 1);
      }
    });
    if (each.size() != n) {
      throw std::runtime_error("the profiler saw " + std::to_string(each.size()) +
                               " kernels in a pass of " + std::to_string(n));
    }
    for (std::size_t k = 0; k < n; ++k) {
      const Pattern& p = patterns[first + k];
      const bool load = p.op == SharedOp::load;
      const SharedCounters& c = each[k];
      const std::uint64_t want = benches[k]->pattern_requests(static_cast<int>(k) + 1, 1);
      const std::uint64_t req = load ? c.sass.load_requests : c.sass.store_requests;
      if (req != want) {
        throw std::runtime_error("pattern '" + p.name + "': its kernel issued " +
                                 std::to_string(req) + " requests, not " + std::to_string(want));
      }
      const double r = static_cast<double>(req);
      PatternReading reading;
      reading.wavefronts =
          static_cast<double>(load ? c.sass.load_wavefronts : c.sass.store_wavefronts) / r;
      reading.l1tex_wavefronts =
          static_cast<double>(load ? c.load_wavefronts_l1tex : c.store_wavefronts_l1tex) / r;
      reading.bank_conflicts =
          static_cast<double>(load ? c.load_bank_conflicts : c.store_bank_conflicts) / r;
      out.push_back(reading);
    }
  }
  return out;
}

} // namespace kit
