#include <exercise.hpp>

#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson04 {
namespace {

// ---------------------------------------------------------------------------------------
// Part 2: polynomials.
// ---------------------------------------------------------------------------------------

__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    eval_polys_impl(const float* __restrict__ coefs, int n_polys, const float* __restrict__ points,
                    int n_points, float* __restrict__ out) {
  // Every access to the table is a kit::st_shared or kit::ld_shared: one 4-byte instruction,
  // where it is written (plain table[...] reads of neighbouring coefficients get fused into
  // 16-byte loads wherever the compiler can prove them aligned).
  __shared__ float table[kTableCapacity];
  const int t = static_cast<int>(threadIdx.y) * kPointsPerTile + static_cast<int>(threadIdx.x);
  const long p0 = static_cast<long>(blockIdx.y) * kPolysPerBlock;
  const long i0 = static_cast<long>(blockIdx.x) * kPointsPerBlock + threadIdx.x; // tile 0
  // Fetch the block's coefficients (zeros past the last polynomial) and this thread's points
  // (zeros past the last point), then stage the coefficients: per pass, a warp stores the 32
  // coefficients of one polynomial.
  float staged[kStagePasses];
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const int e = t + pass * kBlockThreads;
    const int q = e / kCoefs, k = e % kCoefs;
    staged[pass] = p0 + q < n_polys ? coefs[(p0 + q) * kCoefs + k] : 0.0f;
  }
  float x[kPointTiles];
#pragma unroll
  for (int tile = 0; tile < kPointTiles; ++tile) {
    const long i = i0 + tile * kPointsPerTile;
    x[tile] = i < n_points ? points[i] : 0.0f;
  }
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const int e = t + pass * kBlockThreads;
    kit::st_shared(table + coef_slot(e / kCoefs, e % kCoefs), staged[pass]);
  }
  __syncthreads();
  // Horner's rule: thread (x, y) evaluates polynomial y at point x of every tile.
  const int q = static_cast<int>(threadIdx.y);
#pragma unroll
  for (int tile = 0; tile < kPointTiles; ++tile) {
    float y = kit::ld_shared(table + coef_slot(q, kCoefs - 1));
#pragma unroll
    for (int k = kCoefs - 2; k >= 0; --k) {
      y = fmaf(y, x[tile], kit::ld_shared(table + coef_slot(q, k))); // half-warps: q, q + 1
    }
    const long i = i0 + tile * kPointsPerTile;
    if (p0 + q < n_polys && i < n_points) {
      out[(p0 + q) * n_points + i] = y;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Part 3: center_blocks, as it was handed to you (its layout is partial_slot).
// ---------------------------------------------------------------------------------------

/// The sum of v over the 32 lanes of the warp, in every lane.
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = kit::kWarpSize / 2; offset > 0; offset /= 2) {
    v += __shfl_xor_sync(kit::kFullMask, v, offset);
  }
  return v;
}

__global__ void center_blocks_impl(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float partials[kPartialCapacity + 1]; // the partial sums, then the mean
  const int t = static_cast<int>(threadIdx.x);
  const int lane = t % kit::kWarpSize, warp = t / kit::kWarpSize;
  const long first = static_cast<long>(blockIdx.x) * kCenterBlockThreads;
  const long i = first + t;
  const float v = i < n ? in[i] : 0.0f;
  const float sum = warp_sum(v);
  if (lane == 0) {
    kit::st_shared(partials + partial_slot(warp), sum);
  }
  __syncthreads();
  if (warp == 0) {
    const float partial =
        lane < kCenterWarps ? kit::ld_shared(partials + partial_slot(lane)) : 0.0f;
    const float total = warp_sum(partial);
    if (lane == 0) {
      const long count = n - first < kCenterBlockThreads ? n - first : kCenterBlockThreads;
      kit::st_shared(partials + kMeanSlot, total / static_cast<float>(count));
    }
  }
  __syncthreads();
  const float mean = kit::ld_shared(partials + kMeanSlot); // every thread, past the end too
  if (i < n) {
    out[i] = v - mean;
  }
}

} // namespace

void eval_polys(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                cudaStream_t stream) {
  if (n_polys <= 0 || n_points <= 0) {
    return;
  }
  const dim3 block(kPointsPerTile, kPolysPerBlock);
  const dim3 grid((n_points + kPointsPerBlock - 1) / kPointsPerBlock,
                  (n_polys + kPolysPerBlock - 1) / kPolysPerBlock);
  eval_polys_impl<<<grid, block, 0, stream>>>(coefs, n_polys, points, n_points, out);
  CUDA_CHECK_LAUNCH();
}

const void* eval_polys_kernel() {
  return reinterpret_cast<const void*>(&eval_polys_impl);
}

void center_blocks(const float* in, float* out, int n, cudaStream_t stream) {
  if (n <= 0) {
    return;
  }
  const int blocks = (n + kCenterBlockThreads - 1) / kCenterBlockThreads;
  center_blocks_impl<<<blocks, kCenterBlockThreads, 0, stream>>>(in, out, n);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson04
