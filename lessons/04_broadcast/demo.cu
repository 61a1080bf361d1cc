#include <demo.hpp>
#include <exercise.hpp>

#include "demo.cuh"
#include "internal.cuh"
#include "kit/shared_access.cuh"

namespace lesson04 {
namespace {

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

const void* eval_polys_kernel() {
  return reinterpret_cast<const void*>(&eval_polys_tabled<CoefLayout>);
}

void center_blocks(const float* in, float* out, int n, cudaStream_t stream) {
  internal::launch_center_blocks(center_blocks_impl, in, out, n, stream);
}

} // namespace lesson04
