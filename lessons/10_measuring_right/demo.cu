#include <demo.hpp>

#include <curand_kernel.h>

#include <stdexcept>

#include "internal.cuh"
#include "kit/config.hpp"
#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson10 {
namespace {

// ---------------------------------------------------------------------------------------
// The probe.
// ---------------------------------------------------------------------------------------

// [probe_kernel]
/// Every warp fills its share of the tile, then reads column after column of it: lane l reads
/// element (l, c) with one volatile 4-byte load (kit::ld_shared), so the compiler can neither
/// drop, merge nor hoist a read, and the sum goes to `sink` only if it is negative (never: the
/// tile holds 0, 1, 2, ...), so no global memory traffic competes with the reads.
template <class Layout>
__global__ void __launch_bounds__(kProbeMaxThreads, kit::min_blocks_per_sm(kProbeMaxThreads, 2))
    column_reads_kernel(float* sink, int rounds) {
  __shared__ float tile[kProbeFloats];
  constexpr Layout layout{};
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % kit::kWarpSize;
  for (int i = tid; i < kProbeFloats; i += static_cast<int>(blockDim.x)) {
    kit::st_shared(&tile[i], static_cast<float>(i)); // consecutive words
  }
  __syncthreads();
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    // Reads r * kProbeUnroll + u take columns probe_column(r * kProbeUnroll) + u.
    const float* row = &tile[layout(lane, probe_column(r * kProbeUnroll))];
#pragma unroll
    for (int u = 0; u < kProbeUnroll; ++u) {
      sum += kit::ld_shared(row + u); // element (lane, column + u)
    }
  }
  if (sum < 0.0f) {
    sink[0] = sum;
  }
}
// [probe_kernel]

static_assert(kProbeUnroll <= kTileDim && kTileDim % kProbeUnroll == 0,
              "a round's reads stay in one run of columns: probe_column(r * U) + u");

// ---------------------------------------------------------------------------------------
// The four setups. `smem[tid * stride]` with stride 1, 2 or 32 of floats; every access is one
// volatile instruction, so the counters see exactly what the code says.
// ---------------------------------------------------------------------------------------

/// Floats of a 32 x 32 tile: room for 32 lanes at any stride up to 32.
constexpr int kTileFloats = kTileDim * kTileDim;

// [one_access_per_thread]
/// Setup 1: each thread stores one float, waits for its block, loads it back and writes it to
/// global memory. One warp per block, a million threads per launch.
__global__ void one_access_kernel(float* out, int stride) {
  __shared__ float smem[kTileFloats];
  const int tid = static_cast<int>(threadIdx.x);
  float* slot = &smem[tid * stride % kTileFloats];
  kit::st_shared(slot, static_cast<float>(tid));
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = kit::ld_shared(slot);
}
// [one_access_per_thread]

// [one_warp_launches]
/// Setup 2: one warp, one store, one load and one store per thread: the whole kernel.
__global__ void one_warp_kernel(int stride, float t) {
  __shared__ float smem[kTileFloats];
  float* slot = &smem[static_cast<int>(threadIdx.x) * stride];
  kit::st_shared(slot, t);
  kit::st_shared(slot, kit::ld_shared(slot) + 1.0f);
}
// [one_warp_launches]

// [one_warp_loop]
/// Setup 3: one warp adds 1 to its slot in row i % kLoopRows, `iterations` times. Each
/// iteration is a load, an add that waits for it, and a store.
__global__ void one_warp_loop_kernel(int stride, int iterations) {
  __shared__ float smem[kLoopRows * kTileFloats];
  const int tid = static_cast<int>(threadIdx.x);
  for (int k = 0; k < kLoopRows; ++k) {
    kit::st_shared(&smem[tid * stride + k * kTileFloats], 0.0f);
  }
  for (int i = 0; i < iterations; ++i) {
    float* slot = &smem[tid * stride + (i % kLoopRows) * kTileFloats]; // same bank every row
    kit::st_shared(slot, kit::ld_shared(slot) + 1.0f);
  }
}
// [one_warp_loop]

// [barrier_block]
/// Setup 4: one block of 128 threads sets up a random-number generator, then adds its random
/// number to its slot `rounds` times, with a barrier after every step.
__global__ void barrier_block_kernel(int stride, float t, int rounds, float* out) {
  __shared__ float smem[kBarrierThreads * kTileDim];
  const int tid = static_cast<int>(threadIdx.x);
  curandState_t rng;
  curand_init(static_cast<unsigned long long>(clock64()), static_cast<unsigned long long>(tid), 0,
              &rng);
  const float r = curand_uniform(&rng);
  float* slot = &smem[tid * stride];
  kit::st_shared(slot, t);
  for (int i = 0; i < rounds; ++i) {
    kit::st_shared(slot, kit::ld_shared(slot) + r);
    __syncthreads();
  }
  out[tid] = kit::ld_shared(slot);
}
// [barrier_block]

void check_stride(int stride) {
  if (stride < 1 || stride > kTileDim) {
    throw std::invalid_argument("lesson10: setups take strides 1 to 32");
  }
}

/// The launch of setup `s` at `stride` (buffers owned by the caller's scope).
struct SetupRun {
  Setup setup;
  int stride;
  kit::DeviceBuffer<float> out{kOneAccessThreads};

  void operator()() {
    switch (setup) {
    case Setup::one_access_per_thread:
      one_access_kernel<<<kOneAccessThreads / kit::kWarpSize, kit::kWarpSize>>>(out.get(), stride);
      break;
    case Setup::one_warp_launches:
      one_warp_kernel<<<1, kit::kWarpSize>>>(stride, 1.0f);
      break;
    case Setup::one_warp_loop:
      one_warp_loop_kernel<<<1, kit::kWarpSize>>>(stride, kLoopIterations);
      break;
    case Setup::barrier_block:
      barrier_block_kernel<<<1, kBarrierThreads>>>(stride, 1.0f, kBarrierRounds, out.get());
      break;
    }
    CUDA_CHECK_LAUNCH();
  }
};

// ---------------------------------------------------------------------------------------
// The dependent chain.
// ---------------------------------------------------------------------------------------

/// One 4-byte shared load from a shared-window address held in a register: no address
/// arithmetic between one load and the next.
__device__ __forceinline__ unsigned ld_shared_word(unsigned address) {
  unsigned v;
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(address) : "memory");
  return v;
}

// [chain]
/// One warp: every word holds its own address, lane l starts at word l * stride, and each
/// load's address is what the previous load returned. The warp can issue a load only when
/// the one before it has come back, so the cycles per load are the latency of one request.
__global__ void chain_kernel(int stride, int steps, long long* cycles, unsigned* sink) {
  __shared__ float words[kTileFloats];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < kTileFloats; i += kit::kWarpSize) {
    kit::st_shared(&words[i], __uint_as_float(kit::shared_address(&words[i])));
  }
  __syncwarp();
  unsigned at = kit::shared_address(&words[lane * stride]);
  at = ld_shared_word(at); // warm-up step
  const long long start = clock64();
  for (int i = 0; i < steps; i += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      at = ld_shared_word(at);
    }
  }
  const long long stop = clock64();
  if (lane == 0) {
    *cycles = stop - start;
  }
  sink[lane] = at;
}
// [chain]

} // namespace

const void* probe_kernel(Probe p) {
  return p == Probe::conflict ? reinterpret_cast<const void*>(column_reads_kernel<ConflictLayout>)
                              : reinterpret_cast<const void*>(column_reads_kernel<TwinLayout>);
}

void launch_probe(Probe p, const ProbeLaunch& l, float* sink, cudaStream_t stream) {
  if (l.blocks < 1 || l.block_threads < kit::kWarpSize || l.block_threads > kProbeMaxThreads ||
      l.block_threads % kit::kWarpSize != 0 || l.rounds < 0) {
    throw std::invalid_argument("launch_probe: blocks >= 1, block_threads a multiple of 32 up "
                                "to 1024, rounds >= 0");
  }
  if (p == Probe::conflict) {
    column_reads_kernel<ConflictLayout><<<l.blocks, l.block_threads, 0, stream>>>(sink, l.rounds);
  } else {
    column_reads_kernel<TwinLayout><<<l.blocks, l.block_threads, 0, stream>>>(sink, l.rounds);
  }
  CUDA_CHECK_LAUNCH();
}

std::string setup_name(Setup s) {
  switch (s) {
  case Setup::one_access_per_thread:
    return "one access a thread";
  case Setup::one_warp_launches:
    return "one warp, 100 launches";
  case Setup::one_warp_loop:
    return "one warp, a loop";
  case Setup::barrier_block:
    return "one block, a barrier a step";
  }
  return "?";
}

double time_setup(Setup s, int stride) {
  check_stride(stride);
  SetupRun run{s, stride};
  switch (s) {
  case Setup::one_access_per_thread:
    run(); // the demo's one warm-up launch
    CUDA_CHECK(cudaDeviceSynchronize());
    return internal::events_per_launch(kOneAccessLaunches, run);
  case Setup::one_warp_launches:
    internal::events_per_launch(kOneWarpLaunches, run); // the demo's warm-up batch
    return internal::events_per_launch(kOneWarpLaunches, run);
  case Setup::one_warp_loop:
    run();
    CUDA_CHECK(cudaDeviceSynchronize());
    return internal::events_per_launch(kLoopLaunches, run);
  case Setup::barrier_block:
    run();
    CUDA_CHECK(cudaDeviceSynchronize());
    return internal::events_per_launch(1, run);
  }
  return 0;
}

void run_setup_once(Setup s, int stride) {
  check_stride(stride);
  SetupRun run{s, stride};
  run();
  CUDA_CHECK(cudaDeviceSynchronize());
}

double chain_cycles_per_load(int stride) {
  if (stride < 0 || stride > kTileDim) {
    throw std::invalid_argument("chain_cycles_per_load: stride 0 to 32");
  }
  kit::DeviceBuffer<long long> cycles(1);
  kit::DeviceBuffer<unsigned> sink(kit::kWarpSize);
  chain_kernel<<<1, kit::kWarpSize>>>(stride, kChainSteps, cycles.get(), sink.get()); // warm-up
  CUDA_CHECK_LAUNCH();
  chain_kernel<<<1, kit::kWarpSize>>>(stride, kChainSteps, cycles.get(), sink.get());
  CUDA_CHECK_LAUNCH();
  return static_cast<double>(cycles.download()[0]) / kChainSteps;
}

} // namespace lesson10
