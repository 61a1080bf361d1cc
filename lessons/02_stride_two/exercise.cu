#include <exercise.hpp>

#include "kit/cuda_check.hpp"

namespace lesson02 {
namespace {

/// Alignment of the tile: 8 bytes when pairs are read as float2, else a float's own 4.
constexpr int kTileAlign = kPairAccess == PairAccess::one_float2 ? 8 : 4;

/// Stages complex number v as staged number i.
__device__ __forceinline__ void store_pair(float* tile, int i, float2 v) {
  if constexpr (kPairAccess == PairAccess::one_float2) {
    *reinterpret_cast<float2*>(tile + re_slot(i)) = v; // one 8-byte store
  } else {
    tile[re_slot(i)] = v.x; // two 4-byte stores
    tile[im_slot(i)] = v.y;
  }
}

/// Reads staged number i.
__device__ __forceinline__ float2 load_pair(const float* tile, int i) {
  if constexpr (kPairAccess == PairAccess::one_float2) {
    return *reinterpret_cast<const float2*>(tile + re_slot(i)); // one 8-byte load
  } else {
    return make_float2(tile[re_slot(i)], tile[im_slot(i)]); // two 4-byte loads
  }
}

__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    correlate_impl(const float2* __restrict__ x, float2* __restrict__ y, int n, const Taps taps) {
  // A float array is only known to be 4-byte aligned, so the compiler cannot prove that
  // tile + 2i is 8-byte aligned and keeps re and im as the two 4-byte loads this lesson is
  // about. (Align the tile to 8 bytes, or use dynamic shared memory, and nvcc may merge each
  // pair into one 8-byte load: a different instruction with a different cost. The counter
  // tests compare the requests the GPU executes with the ones the trace describes.)
  __shared__ __align__(kTileAlign) float tile[kTileFloats];
  const int t = threadIdx.x;
  const long first = static_cast<long>(blockIdx.x) * kBlockThreads;
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const int e = t + pass * kBlockThreads;
    const long g = first + e;
    store_pair(tile, e, g < n ? x[g] : make_float2(0.0f, 0.0f));
  }
  __syncthreads();
  float re = 0.0f;
  float im = 0.0f;
#pragma unroll
  for (int k = 0; k < kTaps; ++k) {
    const float2 v = load_pair(tile, t + k); // lanes read staged numbers t + k: 32 in a row
    re = fmaf(taps.re[k], v.x, re);
    re = fmaf(-taps.im[k], v.y, re);
    im = fmaf(taps.re[k], v.y, im);
    im = fmaf(taps.im[k], v.x, im);
  }
  if (first + t < n) {
    y[first + t] = make_float2(re, im);
  }
}

} // namespace

void correlate(const float2* x, float2* y, int n, const Taps& taps, cudaStream_t stream) {
  if (n <= 0) {
    return;
  }
  const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
  correlate_impl<<<blocks, kBlockThreads, 0, stream>>>(x, y, n, taps);
  CUDA_CHECK_LAUNCH();
}

const void* correlate_kernel() {
  return reinterpret_cast<const void*>(&correlate_impl);
}

} // namespace lesson02
