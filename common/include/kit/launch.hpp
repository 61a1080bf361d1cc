/// @file launch.hpp
/// @brief One kernel launch that compiles both ways: with nvcc, `kernel<<<grid, block, 0,
/// stream>>>(args...)` and the launch check; with the host compiler, the CPU run of the same
/// kernel (kit/cpu_runtime.hpp: every block in turn, its threads as fibers).
#pragma once

#include <cuda_runtime_api.h>

#if defined(__CUDACC__)

#include "kit/cuda_check.hpp"

namespace kit {

/// Launches `kernel` on `grid` x `block` threads on `stream` (no dynamic shared memory) and
/// checks the launch.
template <class Kernel, class... Args>
void launch(Kernel kernel, dim3 grid, dim3 block, cudaStream_t stream, Args... args) {
  kernel<<<grid, block, 0, stream>>>(args...);
  CUDA_CHECK_LAUNCH();
}

} // namespace kit

#else

#include <functional>

#include "kit/cpu_cuda.hpp"
#include "kit/cpu_runtime.hpp"

namespace kit {

/// Runs `kernel` on the CPU as a grid x block launch would run it (`stream` is not used).
template <class Kernel, class... Args>
void launch(Kernel kernel, dim3 grid, dim3 block, cudaStream_t stream, Args... args) {
  (void)stream;
  const std::function<void()> body = [&] { kernel(args...); };
  cpu_runtime::Runtime::get().launch(grid, block, body);
}

} // namespace kit

#endif
