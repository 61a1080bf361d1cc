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

} // namespace kit
