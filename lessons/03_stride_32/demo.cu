#include <demo.hpp>
#include <exercise.hpp>

#include "internal.cuh"
#include "kit/shared_access.cuh"

namespace lesson03 {
namespace {

// [score_rows]
/// score_rows with the tile in layout `Tile`. Every shared access is one kit::ld_shared /
/// kit::st_shared instruction, issued where it is written (plain smem[...] reads of
/// neighbouring columns get fused into 16-byte loads, with other bank rules).
template <class Tile>
__global__ void __launch_bounds__(kBlockThreads,
                                  kit::min_blocks_per_sm(kBlockThreads, kMinBlocksPerSm))
    score_rows_tiled(const float* __restrict__ rows, int n_rows, int n_cols,
                     const float* __restrict__ queries, float* __restrict__ scores) {
  static_assert(kit::cosize<Tile>() <= kTileCapacity, "the tile must fit in kTileCapacity floats");
  __shared__ float smem[kSharedFloats]; // the tile, then the queries' features
  constexpr Tile tile{};
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int query = static_cast<int>(threadIdx.x) / kit::kWarpSize; // this warp's query
  const long row0 = static_cast<long>(blockIdx.x) * kTileRows;
  internal::TilePrefetch next{rows, queries, n_rows, n_cols, query, lane, row0};
  next.fetch(0);
  float score[kRowsPerLane] = {};
  for (int col0 = 0; col0 < n_cols; col0 += kTileDim) {
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) { // stage: each store writes one tile row
      kit::st_shared(smem + tile(staged_row(query, i), lane), next.row_value[i]);
    }
    kit::st_shared(smem + feature_offset(query, lane), next.feature);
    __syncthreads();
    next.fetch(col0 + kTileDim); // the next tile's global loads, in flight while we read
#pragma unroll
    for (int c = 0; c < kTileDim; ++c) {
      const float f = kit::ld_shared(smem + feature_offset(query, c)); // one word: a broadcast
#pragma unroll
      for (int h = 0; h < kRowsPerLane; ++h) {
        const float v = kit::ld_shared(smem + tile(scored_row(lane, h), c)); // a tile column
        score[h] = fmaf(v, f, score[h]);
      }
    }
    __syncthreads(); // the next tile overwrites this one
  }
  internal::store_scores(score, scores, n_rows, row0, query, lane);
}
// [score_rows]

} // namespace

void score_rows(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                cudaStream_t stream) {
  internal::launch(score_rows_tiled<TileLayout>, rows, n_rows, n_cols, queries, scores, stream);
}

void score_rows_twin(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                     cudaStream_t stream) {
  internal::launch(score_rows_tiled<TwinTileLayout>, rows, n_rows, n_cols, queries, scores, stream);
}

const void* score_rows_kernel() {
  return reinterpret_cast<const void*>(&score_rows_tiled<TileLayout>);
}

const void* score_rows_twin_kernel() {
  return reinterpret_cast<const void*>(&score_rows_tiled<TwinTileLayout>);
}

} // namespace lesson03
