#include <demo.hpp>

#include <string>

#include "kit/cuda_check.hpp"

namespace lesson03 {
namespace {

template <class IndexFn>
kit::Pattern float_pattern(std::string name, IndexFn index) {
  kit::Pattern p;
  p.name = std::move(name);
  p.access.width = sizeof(float);
  for (unsigned lane = 0; lane < kit::kWarpSize; ++lane) {
    p.access.address[lane] = index(lane) * sizeof(float); // float index -> byte offset
  }
  return p;
}

} // namespace

kit::Pattern row_read_demo() {
  return float_pattern("float tile[32][32], row 0",
                       [](unsigned lane) { return tile_offset(0, lane, kPlainPitch); });
}

kit::Pattern column_read_demo(unsigned col) {
  return float_pattern("float tile[32][32], column " + std::to_string(col),
                       [col](unsigned lane) { return tile_offset(lane, col, kPlainPitch); });
}

kit::Pattern padded_column_read_demo(unsigned col) {
  return float_pattern("float tile[32][33], column " + std::to_string(col),
                       [col](unsigned lane) { return tile_offset(lane, col, kPaddedPitch); });
}

kit::Pattern padded_row_read_demo(unsigned row) {
  return float_pattern("float tile[32][33], row " + std::to_string(row),
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
  const long row0 = static_cast<long>(blockIdx.x) * kTileDim;
  float score = 0.0f;
  for (int col0 = 0; col0 < n_cols; col0 += kTileDim) {
    const int col = col0 + lane;
#pragma unroll
    for (int i = 0; i < kTileRowsPerWarp; ++i) {
      const int r = query + i * kQueries;
      const long row = row0 + r;
      smem[twin_tile_index(r, lane)] =
          row < n_rows && col < n_cols ? rows[row * n_cols + col] : 0.0f; // a tile row
    }
    smem[query_index(query, lane)] =
        col < n_cols ? queries[static_cast<long>(query) * n_cols + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int c = 0; c < kTileDim; ++c) {
      // lane l: element (l, c), a tile column; the query feature: one word for the warp
      score = fmaf(smem[twin_tile_index(lane, c)], smem[query_index(query, c)], score);
    }
    __syncthreads();
  }
  if (row0 + lane < n_rows) {
    scores[static_cast<long>(query) * n_rows + row0 + lane] = score;
  }
}

} // namespace

void score_rows_twin(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                     cudaStream_t stream) {
  if (n_rows <= 0) {
    return;
  }
  const int blocks = (n_rows + kTileDim - 1) / kTileDim;
  score_rows_twin_impl<<<blocks, kBlockThreads, 0, stream>>>(rows, n_rows, n_cols, queries, scores);
  CUDA_CHECK_LAUNCH();
}

const void* score_rows_twin_kernel() {
  return reinterpret_cast<const void*>(&score_rows_twin_impl);
}

} // namespace lesson03
