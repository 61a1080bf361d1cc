/// @file lessons/02_stride_two/internal.cuh
/// @brief Lesson 02's plumbing: how the kernel stages and reads one complex number of its tile
/// (one kit::st_shared / kit::ld_shared instruction per access), the checks a tile layout must
/// pass before a kernel uses it, and the launch. You do not need to read or edit this file.
#pragma once

#include <demo.hpp>

#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson02::internal {

/// Whether both parts of every staged number lie inside the tile's kTileFloats floats.
template <class Tile>
KIT_HD constexpr bool inside_the_tile() {
  for (int i = 0; i < kTileElems; ++i) {
    const int re = Tile{}.re_offset(i), im = Tile{}.im_offset(i);
    if (re < 0 || re >= kTileFloats || im < 0 || im >= kTileFloats) {
      return false;
    }
  }
  return true;
}

/// Whether a float2 access reads Re and Im of one number, 8-byte aligned (two 4-byte accesses
/// need neither).
template <class Tile>
KIT_HD constexpr bool float2_pairs_aligned() {
  if constexpr (Tile::kPairAccess == PairAccess::one_float2) {
    for (int i = 0; i < kTileElems; ++i) {
      if (Tile{}.im_offset(i) != Tile{}.re_offset(i) + 1 || Tile{}.re_offset(i) % 2 != 0) {
        return false;
      }
    }
  }
  return true;
}

// [pair_access]
/// Stages complex number v as staged number i of the tile.
template <class Tile>
__device__ __forceinline__ void store_pair(float* tile, int i, float2 v) {
  constexpr Tile layout{};
  if constexpr (Tile::kPairAccess == PairAccess::one_float2) {
    kit::st_shared(reinterpret_cast<float2*>(tile + layout.re_offset(i)), v); // one 8-byte store
  } else {
    kit::st_shared(tile + layout.re_offset(i), v.x); // two 4-byte stores
    kit::st_shared(tile + layout.im_offset(i), v.y);
  }
}

/// Reads staged number i of the tile.
template <class Tile>
__device__ __forceinline__ float2 load_pair(const float* tile, int i) {
  constexpr Tile layout{};
  if constexpr (Tile::kPairAccess == PairAccess::one_float2) {
    return kit::ld_shared(reinterpret_cast<const float2*>(tile + layout.re_offset(i))); // 8 bytes
  } else {
    const float re = kit::ld_shared(tile + layout.re_offset(i)); // two 4-byte loads
    const float im = kit::ld_shared(tile + layout.im_offset(i));
    return make_float2(re, im);
  }
}
// [pair_access]

/// Launches `kernel` over n outputs: one block per kBlockThreads outputs; nothing for n <= 0.
template <class Kernel>
void launch(Kernel kernel, const float2* x, float2* y, int n, const Taps& taps,
            cudaStream_t stream) {
  if (n <= 0) {
    return;
  }
  const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
  kernel<<<blocks, kBlockThreads, 0, stream>>>(x, y, n, taps);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson02::internal
