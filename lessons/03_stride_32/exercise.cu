#include <exercise.hpp>

#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson03 {
namespace {

__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    score_rows_impl(const float* __restrict__ rows, int n_rows, int n_cols,
                    const float* __restrict__ queries, float* __restrict__ scores) {
  // One buffer: the tile (tile_index), then the queries' staged features (query_index). Every
  // access to it is a kit::ld_shared or kit::st_shared: one 4-byte instruction, where it is
  // written (plain smem[...] reads of neighbouring columns get fused into wider loads).
  __shared__ float smem[kSharedFloats];
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int query = static_cast<int>(threadIdx.x) / kit::kWarpSize;
  const long row0 = static_cast<long>(blockIdx.x) * kBlockRows;
  float score[kRowsPerLane] = {};
  // This warp's rows of a tile and its query's features of those columns (zeros outside the
  // matrix) travel through registers: the next tile's global loads are issued before the
  // current tile is read, so their latency hides behind the shared-memory work.
  float staged[kTileRowsPerWarp];
  float feature = 0.0f;
  auto fetch = [&](int col0) {
    const int col = col0 + lane;
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      const long row = row0 + staged_row(query, i);
      staged[i] = row < n_rows && col < n_cols ? rows[row * n_cols + col] : 0.0f;
    }
    feature = col < n_cols ? queries[static_cast<long>(query) * n_cols + col] : 0.0f;
  };
  fetch(0);
  for (int col0 = 0; col0 < n_cols; col0 += kTileDim) {
    // Stage the tile: each store writes one tile row, 32 columns.
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      kit::st_shared(smem + tile_index(staged_row(query, i), lane), staged[i]);
    }
    kit::st_shared(smem + query_index(query, lane), feature);
    __syncthreads();
    fetch(col0 + kTileDim); // the next tile (zeros past the last column)
    // Lane l scores rows l and l + 32: at step c the warp loads the query's feature c (a
    // broadcast), then reads column c of the tile, rows 0-31 and rows 32-63.
#pragma unroll
    for (int c = 0; c < kTileDim; ++c) {
      const float f = kit::ld_shared(smem + query_index(query, c));
#pragma unroll
      for (int h = 0; h < kRowsPerLane; ++h) {
        const float v = kit::ld_shared(smem + tile_index(scored_row(lane, h), c)); // a column
        score[h] = fmaf(v, f, score[h]);
      }
    }
    __syncthreads(); // the next tile overwrites this one
  }
#pragma unroll
  for (int h = 0; h < kRowsPerLane; ++h) {
    const long row = row0 + scored_row(lane, h);
    if (row < n_rows) {
      scores[static_cast<long>(query) * n_rows + row] = score[h];
    }
  }
}

} // namespace

void score_rows(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                cudaStream_t stream) {
  if (n_rows <= 0) {
    return;
  }
  const int blocks = (n_rows + kBlockRows - 1) / kBlockRows;
  score_rows_impl<<<blocks, kBlockThreads, 0, stream>>>(rows, n_rows, n_cols, queries, scores);
  CUDA_CHECK_LAUNCH();
}

const void* score_rows_kernel() {
  return reinterpret_cast<const void*>(&score_rows_impl);
}

} // namespace lesson03
