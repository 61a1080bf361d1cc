/// @file cpu_cuda.hpp
/// @brief What CUDA gives a kernel, on the host, for the CPU run (kit/cpu_runtime.hpp):
/// `threadIdx`, `blockIdx`, `blockDim`, `gridDim`, `warpSize`, `__syncthreads()`, an empty
/// `__launch_bounds__`, and a `__shared__` that is a compile error naming the kit's type for
/// shared memory (kit/shared_tile.hpp). The CUDA headers already give the host compiler
/// `__global__`, `__device__`, `__forceinline__`, `__align__`, `dim3` and `__half`/`__half2`
/// with their conversions (`__lows2half2`, `__highs2half2`, ...).
///
/// You do not include this file: kit/shared_tile.hpp and kit/launch.hpp include it in a host
/// build.
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_cuda.hpp is for the host compiler: nvcc gives kernels the real thing"
#endif

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "kit/cpu_runtime.hpp"

/// The running thread's index in its block.
#define threadIdx (::kit::cpu_runtime::Runtime::get().thread_idx)
/// The running block's index in the grid.
#define blockIdx (::kit::cpu_runtime::Runtime::get().block_idx)
/// The launch's block shape.
#define blockDim (::kit::cpu_runtime::Runtime::get().block_dim)
/// The launch's grid shape.
#define gridDim (::kit::cpu_runtime::Runtime::get().grid_dim)

/// Threads in a warp.
inline constexpr int warpSize = ::kit::kWarpSize;

/// A block-wide barrier: the fiber waits until every thread of the block reaches one.
inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::kit::cpu_runtime::Runtime::get().barrier(file, line);
}

// The CUDA headers leave __launch_bounds__ undefined for the host compiler, and __shared__
// empty: a plain __shared__ array would be one private copy per thread, unrecorded.
#undef __launch_bounds__
/// Nothing on the host: occupancy is the GPU's.
#define __launch_bounds__(...)
#undef __shared__
/// A compile error that names the kit's type for shared memory.
#define __shared__                                                                                 \
  static_assert(false, "in the CPU run, shared memory is declared as "                             \
                       "`KIT_SHARED kit::SharedTile<Layout> tile;` (kit/shared_tile.hpp), not as " \
                       "a __shared__ array, so that every access is recorded and checked");
