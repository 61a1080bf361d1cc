#include <demo.hpp>
#include <exercise.hpp>

#include "internal.cuh"
#include "kit/shared_access.cuh"

namespace lesson04 {
namespace {

// [eval_polys]
/// eval_polys with the coefficient table in layout `Table`. Every table access is one
/// kit::st_shared / kit::ld_shared instruction, issued where it is written (plain table[...]
/// reads of neighbouring coefficients get fused into 16-byte loads, with other bank rules).
template <class Table>
__global__ void __launch_bounds__(kBlockThreads,
                                  kit::min_blocks_per_sm(kBlockThreads, kMinBlocksPerSm))
    eval_polys_tabled(const float* __restrict__ coefs, int n_polys,
                      const float* __restrict__ points, int n_points, float* __restrict__ out) {
  static_assert(kit::cosize<Table>() <= kTableCapacity, "the table must fit in kTableCapacity");
  __shared__ float table[kTableCapacity];
  constexpr Table coef{};
  const int t = static_cast<int>(threadIdx.y) * kPointsPerTile + static_cast<int>(threadIdx.x);
  const long p0 = static_cast<long>(blockIdx.y) * kPolysPerBlock;                // first polynomial
  const long i0 = static_cast<long>(blockIdx.x) * kPointsPerBlock + threadIdx.x; // point, tile 0
  float staged[kStagePasses], x[kPointTiles];
  internal::fetch_coefs(coefs, n_polys, p0, t, staged);
  internal::fetch_points(points, n_points, i0, x);
#pragma unroll
  for (int pass = 0; pass < kStagePasses; ++pass) { // stage: a warp stores one polynomial
    const kit::Coord c = staged_coef(t, pass);
    kit::st_shared(table + coef(c.row, c.col), staged[pass]);
  }
  __syncthreads();
  const int q = static_cast<int>(threadIdx.y); // this thread's polynomial
#pragma unroll
  for (int tile = 0; tile < kPointTiles; ++tile) { // Horner's rule at this thread's point
    float y = kit::ld_shared(table + coef(q, kCoefs - 1));
#pragma unroll
    for (int k = kCoefs - 2; k >= 0; --k) {
      y = fmaf(y, x[tile], kit::ld_shared(table + coef(q, k))); // half-warps: q, q + 1
    }
    internal::store_value(out, n_polys, n_points, p0 + q, i0 + tile * kPointsPerTile, y);
  }
}
// [eval_polys]

// [center_blocks]
/// center_blocks, with warp w's partial sum at partial_offset(w) (exercise.hpp).
__global__ void center_blocks_impl(const float* __restrict__ in, float* __restrict__ out, int n) {
  static_assert(internal::within_partials(partial_offset), "partial sums outside `partials`");
  __shared__ float partials[kPartialCapacity + 1]; // the partial sums, then the mean
  const int t = static_cast<int>(threadIdx.x);
  const int lane = t % kit::kWarpSize, warp = t / kit::kWarpSize;
  const long first = static_cast<long>(blockIdx.x) * kCenterBlockThreads;
  const long i = first + t;
  const float v = i < n ? in[i] : 0.0f;
  const float sum = internal::warp_sum(v);
  if (lane == 0) { // partial_store
    kit::st_shared(partials + partial_offset(warp), sum);
  }
  __syncthreads();
  if (warp == 0) {
    // partial_load: lanes 0..kCenterWarps-1 of warp 0
    const float partial =
        lane < kCenterWarps ? kit::ld_shared(partials + partial_offset(lane)) : 0.0f;
    const float total = internal::warp_sum(partial);
    if (lane == 0) { // mean_store
      kit::st_shared(partials + kMeanOffset, total / internal::samples_in_block(n, first));
    }
  }
  __syncthreads();
  const float mean = kit::ld_shared(partials + kMeanOffset); // mean_load: every thread
  if (i < n) {
    out[i] = v - mean;
  }
}
// [center_blocks]

} // namespace

void eval_polys(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                cudaStream_t stream) {
  internal::launch_eval_polys(eval_polys_tabled<CoefLayout>, coefs, n_polys, points, n_points, out,
                              stream);
}

void eval_polys_twin(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                     cudaStream_t stream) {
  internal::launch_eval_polys(eval_polys_tabled<TwinCoefLayout>, coefs, n_polys, points, n_points,
                              out, stream);
}

const void* eval_polys_kernel() {
  return reinterpret_cast<const void*>(&eval_polys_tabled<CoefLayout>);
}

const void* eval_polys_twin_kernel() {
  return reinterpret_cast<const void*>(&eval_polys_tabled<TwinCoefLayout>);
}

void center_blocks(const float* in, float* out, int n, cudaStream_t stream) {
  internal::launch_center_blocks(center_blocks_impl, in, out, n, stream);
}

} // namespace lesson04
