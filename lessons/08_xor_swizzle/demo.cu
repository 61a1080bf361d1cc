#include <demo.hpp>
#include <exercise.hpp>

#include <vector>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"
#include "score_rows/kernel.cuh"

namespace lesson08 {
namespace {

/// The student's pair store (exercise.hpp): where each pair of a tile row goes.
struct ExercisePairs {
  KIT_HD static constexpr PairStore at(int r, int p) { return pair_store(r, p); }
};

// [load_fragments]
/// Stages 16 x 64 half tiles in layout `Tile`, one 16-byte chunk per store, and reads them
/// back with one ldmatrix.x4 per k-step.
template <class Tile>
__global__ void __launch_bounds__(kit::kWarpSize)
    load_fragments_tiled(const __half* __restrict__ in, unsigned* __restrict__ out) {
  static_assert(holds_the_fragment_tile<Tile>());
  __shared__ __align__(128) __half tile[kit::cosize<Tile>(kFragmentRows, kFragmentCols)];
  constexpr Tile layout{};
  const int lane = static_cast<int>(threadIdx.x);
  const __half* src = in + static_cast<long>(blockIdx.x) * kFragmentRows * kFragmentCols;
#pragma unroll
  for (int i = 0; i < kChunkStores; ++i) {
    const kit::Coord e = chunk_coord(i, lane); // a quarter-warp stores one row
    const float4 v = *reinterpret_cast<const float4*>(src + e.row * kFragmentCols + e.col);
    kit::st_shared(reinterpret_cast<float4*>(tile + layout(e.row, e.col)), v);
  }
  __syncthreads();
#pragma unroll
  for (int s = 0; s < kFragmentSteps; ++s) {
    const kit::Coord e = ldsm_coord(s, lane); // lanes 8 i .. 8 i + 7: the rows of matrix i
    unsigned reg[4];
    kit::ldmatrix_x4(tile + layout(e.row, e.col), reg);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      out[((static_cast<long>(blockIdx.x) * kFragmentSteps + s) * 4 + i) * kit::kWarpSize + lane] =
          reg[i];
    }
  }
}
// [load_fragments]

template <class Tile>
void launch_fragments(const __half* in, unsigned* out, int tiles, cudaStream_t stream) {
  if (tiles <= 0) {
    return;
  }
  load_fragments_tiled<Tile><<<tiles, kit::kWarpSize, 0, stream>>>(in, out);
  CUDA_CHECK_LAUNCH();
}

/// The ldmatrix microbenchmark: lane l's row at byte rows[l] of a shared buffer, round k at
/// rows[l] + k kLdsmBenchBytes (the same banks; a different address, so that the compiler
/// keeps every round: ldmatrix is not volatile, and two identical ones become one).
template <int Matrices>
__global__ void __launch_bounds__(kit::kWarpSize)
    ldsm_bench(const unsigned* __restrict__ rows, unsigned* __restrict__ out) {
  __shared__ __align__(128) __half buf[kLdsmBenchRounds * kLdsmBenchBytes / sizeof(__half)];
  unsigned acc = 0;
#pragma unroll
  for (int k = 0; k < kLdsmBenchRounds; ++k) {
    const __half* row = buf + (rows[threadIdx.x] + k * kLdsmBenchBytes) / sizeof(__half);
    unsigned r[Matrices];
    if constexpr (Matrices == 1) {
      kit::ldmatrix_x1(row, r);
    } else if constexpr (Matrices == 2) {
      kit::ldmatrix_x2(row, r);
    } else {
      kit::ldmatrix_x4(row, r);
    }
#pragma unroll
    for (int i = 0; i < Matrices; ++i) {
      acc += r[i] * static_cast<unsigned>(k + 1);
    }
  }
  out[blockIdx.x * kit::kWarpSize + threadIdx.x] = acc;
}

} // namespace

void score_rows(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                cudaStream_t stream) {
  families::score_rows::launch<ScoreRows, TileLayout, ExercisePairs>(
      "score_rows", rows, n_rows, n_cols, queries, scores, stream);
}

const void* score_rows_kernel() {
  return families::score_rows::kernel_of<ScoreRows, TileLayout, ExercisePairs>();
}

void load_fragments(const __half* in, unsigned* out, int tiles, cudaStream_t stream) {
  launch_fragments<FragmentTile>(in, out, tiles, stream);
}

void load_fragments_padded(const __half* in, unsigned* out, int tiles, cudaStream_t stream) {
  launch_fragments<FragmentPaddedTile>(in, out, tiles, stream);
}

void load_fragments_plain(const __half* in, unsigned* out, int tiles, cudaStream_t stream) {
  launch_fragments<FragmentRows>(in, out, tiles, stream);
}

void run_ldsm_pattern(const kit::LdsmPattern& pattern) {
  std::vector<unsigned> rows(kit::kWarpSize);
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    rows[static_cast<std::size_t>(lane)] = pattern.access.address[lane] % kLdsmBenchBytes;
  }
  kit::DeviceBuffer<unsigned> d_rows(rows);
  kit::DeviceBuffer<unsigned> d_out(static_cast<std::size_t>(kLdsmBenchBlocks) * kit::kWarpSize);
  if (pattern.matrices == 1) {
    ldsm_bench<1><<<kLdsmBenchBlocks, kit::kWarpSize>>>(d_rows.get(), d_out.get());
  } else if (pattern.matrices == 2) {
    ldsm_bench<2><<<kLdsmBenchBlocks, kit::kWarpSize>>>(d_rows.get(), d_out.get());
  } else {
    ldsm_bench<4><<<kLdsmBenchBlocks, kit::kWarpSize>>>(d_rows.get(), d_out.get());
  }
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace lesson08
