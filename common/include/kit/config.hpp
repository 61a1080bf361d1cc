/// @file config.hpp
/// @brief The named facts of shared memory and the host/device function marker.
///
/// Everything here compiles with a plain host compiler (no CUDA headers needed), so the
/// bank model and every lesson's index functions can be tested on a machine without a GPU.
#pragma once

#include <cstdint>

/// Marks a function usable from host code and from CUDA kernels. Under a plain host
/// compiler it expands to nothing, so the same `constexpr` function runs in CPU tests.
#if defined(__CUDACC__)
#define KIT_HD __host__ __device__
#else
#define KIT_HD
#endif

namespace kit {

/// Threads in a warp: the lanes that issue one shared-memory request together.
inline constexpr int kWarpSize = 32;
/// Shared-memory banks on every architecture since Kepler's 4-byte mode (sm_50 and up).
inline constexpr int kNumBanks = 32;
/// Bytes held by one bank in one row: a 32-bit word.
inline constexpr int kBankBytes = 4;
/// Bytes one wavefront can deliver when every bank serves one word.
inline constexpr int kWavefrontBytes = kNumBanks * kBankBytes;
/// Active-lane mask of a full warp.
inline constexpr std::uint32_t kFullMask = 0xffffffffu;

/// The bank that serves a byte address: `(address / 4) % 32`.
KIT_HD constexpr int bank_of(std::uint32_t byte_address) {
  return static_cast<int>((byte_address / kBankBytes) % kNumBanks);
}

/// The 32-bit word (row of the bank array) that holds a byte address.
KIT_HD constexpr std::uint32_t word_of(std::uint32_t byte_address) {
  return byte_address / kBankBytes;
}

/// Resident threads an SM holds on the architecture being compiled: 1024 on sm_75, 1536 on
/// sm_86, sm_89 and sm_12x, 2048 on the others the course builds for (sm_80, sm_87, sm_90,
/// sm_100). Host code sees 2048. Use it in `__launch_bounds__` (min_blocks_per_sm), so one
/// source asks each architecture only for what it can hold.
KIT_HD constexpr int max_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return 1024;
#elif defined(__CUDA_ARCH__) &&                                                                    \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
  return 1536;
#else
  return 2048;
#endif
}

/// The second argument of `__launch_bounds__(block_threads, ...)`: `wanted` resident blocks
/// per SM, or as many as the architecture being compiled can hold, if fewer.
KIT_HD constexpr int min_blocks_per_sm(int block_threads, int wanted) {
  return wanted * block_threads <= max_threads_per_sm() ? wanted
                                                        : max_threads_per_sm() / block_threads;
}

} // namespace kit
