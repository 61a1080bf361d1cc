#include <demo.hpp>

#include <string>

#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson02 {

kit::Pattern stride_demo(unsigned stride) {
  kit::Pattern p;
  p.name = "float stride " + std::to_string(stride);
  p.access.width = sizeof(float);
  for (unsigned lane = 0; lane < kit::kWarpSize; ++lane) {
    p.access.address[lane] = strided_index(lane, stride) * sizeof(float); // float -> byte offset
  }
  return p;
}

namespace {

// The same kernel as lessons/02_stride_two/exercise.cu, with the structure-of-arrays layout:
// every shared access is a 4-byte access to 32 consecutive words, made with kit::ld_shared /
// kit::st_shared (one instruction each, where it is written: never fused, moved or dropped).
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    correlate_twin_impl(const float2* __restrict__ x, float2* __restrict__ y, int n,
                        const Taps taps) {
  __shared__ __align__(8) float tile[kTileFloats];
  const int t = threadIdx.x;
  const long first = static_cast<long>(blockIdx.x) * kBlockThreads;
  float2 in[kStagePasses];
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const long g = first + t + pass * kBlockThreads;
    in[pass] = g < n ? x[g] : make_float2(0.0f, 0.0f);
  }
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const int e = t + pass * kBlockThreads;
    kit::st_shared(tile + twin_re_slot(e), in[pass].x); // lanes: 32 consecutive words
    kit::st_shared(tile + twin_im_slot(e), in[pass].y); // lanes: 32 consecutive words
  }
  __syncthreads();
  float re = 0.0f;
  float im = 0.0f;
#pragma unroll
  for (int k = 0; k < kTaps; ++k) {
    const float xr = kit::ld_shared(tile + twin_re_slot(t + k));
    const float xi = kit::ld_shared(tile + twin_im_slot(t + k));
    re = fmaf(taps.re[k], xr, re);
    re = fmaf(-taps.im[k], xi, re);
    im = fmaf(taps.re[k], xi, im);
    im = fmaf(taps.im[k], xr, im);
  }
  if (first + t < n) {
    y[first + t] = make_float2(re, im);
  }
}

} // namespace

void correlate_twin(const float2* x, float2* y, int n, const Taps& taps, cudaStream_t stream) {
  if (n <= 0) {
    return;
  }
  const int blocks = (n + kBlockThreads - 1) / kBlockThreads;
  correlate_twin_impl<<<blocks, kBlockThreads, 0, stream>>>(x, y, n, taps);
  CUDA_CHECK_LAUNCH();
}

const void* correlate_twin_kernel() {
  return reinterpret_cast<const void*>(&correlate_twin_impl);
}

} // namespace lesson02
