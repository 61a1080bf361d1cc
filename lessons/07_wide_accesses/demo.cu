#include <demo.hpp>
#include <exercise.hpp>

#include "internal.cuh"
#include "kit/shared_access.cuh"

namespace lesson07 {
namespace {

/// One 16-byte load of the four floats at `p` (`p` 16-byte aligned).
__device__ __forceinline__ float4 load4(const float* p) {
  return kit::ld_shared(reinterpret_cast<const float4*>(p));
}

// [score_rows4]
/// score_rows4 with the tile in layout `Tile`. Every shared access is one kit::ld_shared /
/// kit::st_shared instruction, issued where it is written.
template <class Tile>
__global__ void __launch_bounds__(kBlockThreads,
                                  kit::min_blocks_per_sm(kBlockThreads, kMinBlocksPerSm))
    score_rows4_tiled(const float* __restrict__ rows, int n_rows, int n_cols,
                      const float* __restrict__ queries, float* __restrict__ scores) {
  static_assert(kit::cosize<Tile>() <= kTileCapacity, "the tile must fit in kTileCapacity floats");
  __shared__ __align__(16) float smem[kSharedFloats]; // the tile, then the queries' features
  constexpr Tile tile{};
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int query = static_cast<int>(threadIdx.x) / kit::kWarpSize; // this warp's query
  const long row0 = static_cast<long>(blockIdx.x) * kTileRows;
  internal::TilePrefetch next{rows, queries, n_rows, n_cols, query, lane, row0};
  next.fetch(0);
  float score[kRowsPerLane] = {};
  for (int col0 = 0; col0 < n_cols; col0 += kTileDim) {
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) { // stage: each 4-byte store writes a tile row
      kit::st_shared(smem + tile(staged_row(query, i), lane), next.row_value[i]);
    }
    kit::st_shared(smem + feature_offset(query, lane), next.feature);
    __syncthreads();
    next.fetch(col0 + kTileDim); // the next tile's global loads, in flight while we read
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int c = step_column(s);
      const float4 f = load4(smem + feature_offset(query, c)); // one address for every lane
#pragma unroll
      for (int h = 0; h < kRowsPerLane; ++h) {
        const float4 v = load4(smem + tile(scored_row(lane, h), c)); // 4 floats of lane's row
        score[h] = fmaf(v.x, f.x, score[h]);
        score[h] = fmaf(v.y, f.y, score[h]);
        score[h] = fmaf(v.z, f.z, score[h]);
        score[h] = fmaf(v.w, f.w, score[h]);
      }
    }
    __syncthreads(); // the next tile overwrites this one
  }
  internal::store_scores(score, scores, n_rows, row0, query, lane);
}
// [score_rows4]

} // namespace

void score_rows4(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                 cudaStream_t stream) {
  internal::require_aligned<TileLayout>("score_rows4");
  internal::launch(score_rows4_tiled<TileLayout>, rows, n_rows, n_cols, queries, scores, stream);
}

void score_rows4_twin(const float* rows, int n_rows, int n_cols, const float* queries,
                      float* scores, cudaStream_t stream) {
  internal::require_aligned<TwinTileLayout>("score_rows4_twin");
  internal::launch(score_rows4_tiled<TwinTileLayout>, rows, n_rows, n_cols, queries, scores,
                   stream);
}

const void* score_rows4_kernel() {
  return reinterpret_cast<const void*>(&score_rows4_tiled<TileLayout>);
}

const void* score_rows4_twin_kernel() {
  return reinterpret_cast<const void*>(&score_rows4_tiled<TwinTileLayout>);
}

} // namespace lesson07
