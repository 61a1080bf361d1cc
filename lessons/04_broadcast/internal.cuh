/// @file lessons/04_broadcast/internal.cuh
/// @brief Lesson 04's plumbing: the global-memory side of eval_polys and center_blocks (loads
/// with zeros past the end, masked stores), the warp sum, and the launches. You do not need to
/// read or edit this file.
#pragma once

#include <demo.hpp>

#include "kit/config.hpp"
#include "kit/cuda_check.hpp"

namespace lesson04::internal {

/// Loads the coefficients thread `thread` stages (staged_coef(thread, pass) of the block whose
/// first polynomial is p0), zeros past the last polynomial.
__device__ inline void fetch_coefs(const float* __restrict__ coefs, int n_polys, long p0,
                                   int thread, float (&staged)[kStagePasses]) {
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const kit::Coord c = staged_coef(thread, pass);
    staged[pass] = p0 + c.row < n_polys ? coefs[(p0 + c.row) * kCoefs + c.col] : 0.0f;
  }
}

/// Loads this thread's point of each tile (point i0 of tile 0), zeros past the last point.
__device__ inline void fetch_points(const float* __restrict__ points, int n_points, long i0,
                                    float (&x)[kPointTiles]) {
#pragma unroll
  for (int tile = 0; tile < kPointTiles; ++tile) {
    const long i = i0 + tile * kPointsPerTile;
    x[tile] = i < n_points ? points[i] : 0.0f;
  }
}

/// Writes out[p][i] = y when (p, i) is inside the n_polys x n_points output.
__device__ inline void store_value(float* __restrict__ out, int n_polys, int n_points, long p,
                                   long i, float y) {
  if (p < n_polys && i < n_points) {
    out[p * n_points + i] = y;
  }
}

/// Launches `kernel` over the polynomials and points: one 16 x 16 block per kPolysPerBlock
/// polynomials and kPointsPerBlock points; nothing for an empty problem.
template <class Kernel>
void launch_eval_polys(Kernel kernel, const float* coefs, int n_polys, const float* points,
                       int n_points, float* out, cudaStream_t stream) {
  if (n_polys <= 0 || n_points <= 0) {
    return;
  }
  const dim3 block(kPointsPerTile, kPolysPerBlock);
  const dim3 grid((n_points + kPointsPerBlock - 1) / kPointsPerBlock,
                  (n_polys + kPolysPerBlock - 1) / kPolysPerBlock);
  kernel<<<grid, block, 0, stream>>>(coefs, n_polys, points, n_points, out);
  CUDA_CHECK_LAUNCH();
}

/// The sum of v over the 32 lanes of the warp, in every lane.
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = kit::kWarpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(kit::kFullMask, v, offset);
  }
  return v;
}

/// Samples of the block whose first sample is `first`: kCenterBlockThreads, or fewer in a
/// short last block.
__device__ inline float samples_in_block(int n, long first) {
  const long count = n - first < kCenterBlockThreads ? n - first : kCenterBlockThreads;
  return static_cast<float>(count);
}

/// Whether every warp's partial_offset lies in [0, kPartialCapacity).
template <class OffsetFn>
KIT_HD constexpr bool within_partials(OffsetFn offset_of) {
  for (int w = 0; w < kCenterWarps; ++w) {
    if (offset_of(w) < 0 || offset_of(w) >= kPartialCapacity) {
      return false;
    }
  }
  return true;
}

/// Launches `kernel` over n samples: one block per kCenterBlockThreads; nothing for n <= 0.
template <class Kernel>
void launch_center_blocks(Kernel kernel, const float* in, float* out, int n, cudaStream_t stream) {
  if (n <= 0) {
    return;
  }
  const int blocks = (n + kCenterBlockThreads - 1) / kCenterBlockThreads;
  kernel<<<blocks, kCenterBlockThreads, 0, stream>>>(in, out, n);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson04::internal
