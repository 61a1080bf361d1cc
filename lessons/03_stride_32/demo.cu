#include <demo.hpp>

#include <string>

#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson03 {

kit::Pattern row_read_demo() {
  return kit::indexed_pattern("float tile[32][32], row 0", sizeof(float),
                              [](unsigned lane) { return tile_offset(0, lane, kPlainPitch); });
}

kit::Pattern column_read_demo(unsigned col) {
  return kit::indexed_pattern("float tile[32][32], column " + std::to_string(col), sizeof(float),
                              [col](unsigned lane) { return tile_offset(lane, col, kPlainPitch); });
}

kit::Pattern padded_column_read_demo(unsigned col) {
  return kit::indexed_pattern(
      "float tile[32][33], column " + std::to_string(col), sizeof(float),
      [col](unsigned lane) { return tile_offset(lane, col, kPaddedPitch); });
}

kit::Pattern padded_row_read_demo(unsigned row) {
  return kit::indexed_pattern(
      "float tile[32][33], row " + std::to_string(row), sizeof(float),
      [row](unsigned lane) { return tile_offset(row, lane, kPaddedPitch); });
}

namespace {

// The same kernel as lessons/03_stride_32/exercise.cu, with the padded tile.
__global__ void __launch_bounds__(kBlockThreads, kMinBlocksPerSm)
    score_rows_twin_impl(const float* __restrict__ rows, int n_rows, int n_cols,
                         const float* __restrict__ queries, float* __restrict__ scores) {
  __shared__ float smem[kSharedFloats];
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int query = static_cast<int>(threadIdx.x) / kit::kWarpSize;
  const long row0 = static_cast<long>(blockIdx.x) * kBlockRows;
  float score[kRowsPerLane] = {};
  // The tile's values travel through registers: the next tile's global loads are issued
  // before the current tile is read, so their latency hides behind the shared-memory work.
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
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      kit::st_shared(smem + twin_tile_index(staged_row(query, i), lane), staged[i]); // a row
    }
    kit::st_shared(smem + query_index(query, lane), feature);
    __syncthreads();
    fetch(col0 + kTileDim); // the next tile (zeros past the last column)
#pragma unroll
    for (int c = 0; c < kTileDim; ++c) {
      const float f = kit::ld_shared(smem + query_index(query, c)); // one word for the warp
#pragma unroll
      for (int h = 0; h < kRowsPerLane; ++h) {
        const float v = kit::ld_shared(smem + twin_tile_index(scored_row(lane, h), c)); // column
        score[h] = fmaf(v, f, score[h]);
      }
    }
    __syncthreads();
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

void score_rows_twin(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                     cudaStream_t stream) {
  if (n_rows <= 0) {
    return;
  }
  const int blocks = (n_rows + kBlockRows - 1) / kBlockRows;
  score_rows_twin_impl<<<blocks, kBlockThreads, 0, stream>>>(rows, n_rows, n_cols, queries, scores);
  CUDA_CHECK_LAUNCH();
}

const void* score_rows_twin_kernel() {
  return reinterpret_cast<const void*>(&score_rows_twin_impl);
}

} // namespace lesson03
