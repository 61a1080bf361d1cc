#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson04 {
namespace {

// ---------------------------------------------------------------------------------------
// Part 2: polynomials.
// ---------------------------------------------------------------------------------------

__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    eval_polys_impl(const float* __restrict__ coefs, int n_polys, const float* __restrict__ points,
                    int n_points, float* __restrict__ out) {
  __shared__ float table[kTableCapacity];
  const int t = static_cast<int>(threadIdx.y) * kPointsPerBlock + static_cast<int>(threadIdx.x);
  const long p0 = static_cast<long>(blockIdx.y) * kPolysPerBlock;
  // Stage the block's coefficients (zeros past the last polynomial): per pass, a warp copies
  // the 32 coefficients of one polynomial.
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const int e = t + pass * kBlockThreads;
    const int q = e / kCoefs, k = e % kCoefs;
    table[coef_slot(q, k)] = p0 + q < n_polys ? coefs[(p0 + q) * kCoefs + k] : 0.0f;
  }
  __syncthreads();
  // Horner's rule: thread (x, y) evaluates polynomial y at point x.
  const int q = static_cast<int>(threadIdx.y);
  const long i = static_cast<long>(blockIdx.x) * kPointsPerBlock + threadIdx.x;
  const float x = i < n_points ? points[i] : 0.0f;
  float y = table[coef_slot(q, kCoefs - 1)];
#pragma unroll
  for (int k = kCoefs - 2; k >= 0; --k) {
    y = fmaf(y, x, table[coef_slot(q, k)]); // half-warps: polynomials q, q + 1
  }
  if (p0 + q < n_polys && i < n_points) {
    out[(p0 + q) * n_points + i] = y;
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
    partials[partial_slot(warp)] = sum;
  }
  __syncthreads();
  if (warp == 0) {
    const float partial = lane < kCenterWarps ? partials[partial_slot(lane)] : 0.0f;
    const float total = warp_sum(partial);
    if (lane == 0) {
      const long count = n - first < kCenterBlockThreads ? n - first : kCenterBlockThreads;
      partials[kMeanSlot] = total / static_cast<float>(count);
    }
  }
  __syncthreads();
  if (i < n) {
    out[i] = v - partials[kMeanSlot];
  }
}

} // namespace

void eval_polys(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                cudaStream_t stream) {
  if (n_polys <= 0 || n_points <= 0) {
    return;
  }
  const dim3 block(kPointsPerBlock, kPolysPerBlock);
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
