#include <demo.hpp>
#include <exercise.hpp>

#include "internal.cuh"

namespace lesson02 {
namespace {

// [correlate]
/// correlate with the tile in layout `Tile`. Every shared access is one kit::st_shared /
/// kit::ld_shared instruction (internal::store_pair, load_pair), issued where it is written.
template <class Tile>
__global__ void __launch_bounds__(kBlockThreads,
                                  kit::min_blocks_per_sm(kBlockThreads, kMinBlocksPerSm))
    correlate_tiled(const float2* __restrict__ x, float2* __restrict__ y, int n, const Taps taps) {
  static_assert(internal::inside_the_tile<Tile>(), "offsets must lie in 0..kTileFloats-1");
  static_assert(internal::float2_pairs_aligned<Tile>(),
                "one_float2 needs im_offset(i) == re_offset(i) + 1 and re_offset(i) even");
  __shared__ __align__(8) float tile[kTileFloats]; // a float2 at an even offset is aligned
  const int t = threadIdx.x;
  const long first = static_cast<long>(blockIdx.x) * kBlockThreads;
  float2 in[kStagePasses]; // this thread's inputs (zeros past the end), fetched first
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const long g = first + t + pass * kBlockThreads;
    in[pass] = g < n ? x[g] : make_float2(0.0f, 0.0f);
  }
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) { // lanes: 32 staged numbers in a row
    internal::store_pair<Tile>(tile, t + pass * kBlockThreads, in[pass]);
  }
  __syncthreads();
  float re = 0.0f;
  float im = 0.0f;
#pragma unroll
  for (int k = 0; k < kTaps; ++k) {
    const float2 v = internal::load_pair<Tile>(tile, t + k); // lanes: 32 staged numbers in a row
    re = fmaf(taps.re[k], v.x, re);
    re = fmaf(-taps.im[k], v.y, re);
    im = fmaf(taps.re[k], v.y, im);
    im = fmaf(taps.im[k], v.x, im);
  }
  if (first + t < n) {
    y[first + t] = make_float2(re, im);
  }
}
// [correlate]

} // namespace

void correlate(const float2* x, float2* y, int n, const Taps& taps, cudaStream_t stream) {
  internal::launch(correlate_tiled<TileLayout>, x, y, n, taps, stream);
}

void correlate_twin(const float2* x, float2* y, int n, const Taps& taps, cudaStream_t stream) {
  internal::launch(correlate_tiled<TwinTileLayout>, x, y, n, taps, stream);
}

const void* correlate_kernel() {
  return reinterpret_cast<const void*>(&correlate_tiled<TileLayout>);
}

const void* correlate_twin_kernel() {
  return reinterpret_cast<const void*>(&correlate_tiled<TwinTileLayout>);
}

} // namespace lesson02
