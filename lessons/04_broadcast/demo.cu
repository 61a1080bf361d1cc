#include <demo.hpp>

#include <string>

#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson04 {

kit::Pattern stride_one_demo() {
  return kit::indexed_pattern("float stride 1", sizeof(float), stride_one_index);
}
kit::Pattern one_word_demo() {
  return kit::indexed_pattern("float, all lanes word 0", sizeof(float), one_word_index);
}
kit::Pattern lane_pairs_demo() {
  return kit::indexed_pattern("float, lane pairs share a word", sizeof(float), lane_pairs_index);
}
kit::Pattern two_words_two_banks_demo() {
  return kit::indexed_pattern("float, lanes alternate words 0 and 1", sizeof(float),
                              two_words_two_banks_index);
}
kit::Pattern two_words_one_bank_demo() {
  return kit::indexed_pattern("float, lanes alternate words 0 and 32", sizeof(float),
                              two_words_one_bank_index);
}
kit::Pattern one_word_store_demo() {
  return kit::indexed_pattern("float store, all lanes word 0", sizeof(float), one_word_index,
                              kit::SharedOp::store);
}
kit::Pattern stride_one_store_demo() {
  return kit::indexed_pattern("float store, stride 1", sizeof(float), stride_one_index,
                              kit::SharedOp::store);
}

namespace {

// The same kernel as lessons/04_broadcast/exercise.cu, with the padded table; every table
// access is one kit::st_shared / kit::ld_shared (never fused, moved or dropped).
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    eval_polys_twin_impl(const float* __restrict__ coefs, int n_polys,
                         const float* __restrict__ points, int n_points, float* __restrict__ out) {
  __shared__ float table[kTableCapacity];
  const int t = static_cast<int>(threadIdx.y) * kPointsPerTile + static_cast<int>(threadIdx.x);
  const long p0 = static_cast<long>(blockIdx.y) * kPolysPerBlock;
  const long i0 = static_cast<long>(blockIdx.x) * kPointsPerBlock + threadIdx.x; // tile 0
  float staged[kStagePasses];
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) {
    const int e = t + pass * kBlockThreads;
    const int q = e / kCoefs, k = e % kCoefs; // a warp: one polynomial, k = lane
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
    kit::st_shared(table + twin_coef_slot(e / kCoefs, e % kCoefs), staged[pass]);
  }
  __syncthreads();
  const int q = static_cast<int>(threadIdx.y);
#pragma unroll
  for (int tile = 0; tile < kPointTiles; ++tile) {
    float y = kit::ld_shared(table + twin_coef_slot(q, kCoefs - 1));
#pragma unroll
    for (int k = kCoefs - 2; k >= 0; --k) {
      y = fmaf(y, x[tile], kit::ld_shared(table + twin_coef_slot(q, k))); // half-warps: q, q + 1
    }
    const long i = i0 + tile * kPointsPerTile;
    if (p0 + q < n_polys && i < n_points) {
      out[(p0 + q) * n_points + i] = y;
    }
  }
}

} // namespace

void eval_polys_twin(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                     cudaStream_t stream) {
  if (n_polys <= 0 || n_points <= 0) {
    return;
  }
  const dim3 block(kPointsPerTile, kPolysPerBlock);
  const dim3 grid((n_points + kPointsPerBlock - 1) / kPointsPerBlock,
                  (n_polys + kPolysPerBlock - 1) / kPolysPerBlock);
  eval_polys_twin_impl<<<grid, block, 0, stream>>>(coefs, n_polys, points, n_points, out);
  CUDA_CHECK_LAUNCH();
}

const void* eval_polys_twin_kernel() {
  return reinterpret_cast<const void*>(&eval_polys_twin_impl);
}

} // namespace lesson04
