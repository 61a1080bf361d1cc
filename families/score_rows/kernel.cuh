/// @file families/score_rows/kernel.cuh
/// @brief The score_rows kernel (families/score_rows/shape.hpp): one template over the kind
/// (a Shape), the tile's layout and, for pair-staged kinds, the pair store; its global-memory
/// side (the next tile's loads, issued early), the store of the scores and the launch.
///
/// A lesson's demo.cu instantiates it with the student's layout through launch() and
/// kernel_of(); a lesson's tests instantiate it with the conflict-free twin's.
#pragma once

#include <stdexcept>
#include <string>

#include "kit/cuda_check.hpp"
#include "kit/layout.hpp"
#include "kit/shared_access.cuh"
#include "score_rows/shape.hpp"

namespace families::score_rows {

/// `N` floats of one shared load, in registers.
template <int N>
struct Floats {
  float f[N]; ///< The floats, in offset order.
};

/// One shared load of the `N` floats at `p` (1, 2 or 4 floats: `p` aligned to N floats).
template <int N>
__device__ __forceinline__ Floats<N> load(const float* p) {
  if constexpr (N == 1) {
    return {{kit::ld_shared(p)}};
  } else if constexpr (N == 2) {
    const float2 v = kit::ld_shared(reinterpret_cast<const float2*>(p));
    return {{v.x, v.y}};
  } else {
    static_assert(N == 4, "a lane loads 1, 2 or 4 floats");
    const float4 v = kit::ld_shared(reinterpret_cast<const float4*>(p));
    return {{v.x, v.y, v.z, v.w}};
  }
}

/// One warp's share of a tile in registers (zeros outside the matrix). fetch() issues the next
/// tile's global loads before the current tile is read, so their latency hides behind the
/// shared-memory work and the kernel's time is its shared-memory time. Floats-staged kinds:
/// the warp's kTileRowsPerWarp tile rows at lane `lane`'s column.
template <class S, Staging = S::kStaging>
struct TilePrefetch {
  const float* __restrict__ rows;
  const float* __restrict__ queries;
  int n_rows, n_cols, query, lane;
  long row0;                            ///< First matrix row of the block.
  float row_value[S::kTileRowsPerWarp]; ///< Element (staged_row(query, i), lane) of the tile.
  float feature;                        ///< Feature `lane` of the tile's columns for `query`.

  __device__ void fetch(int col0) {
    const int col = col0 + lane;
#pragma unroll
    for (int i = 0; i < S::kTileRowsPerWarp; ++i) {
      const long row = row0 + S::staged_row(query, i);
      row_value[i] = row < n_rows && col < n_cols ? rows[row * n_cols + col] : 0.0f;
    }
    feature = col < n_cols ? queries[static_cast<long>(query) * n_cols + col] : 0.0f;
  }
};

/// Pair-staged kinds: the lane's pair (paired_row, 2 staged_pair + {0, 1}) of the matrix tile
/// at column col0, one 8-byte load where the rows allow it.
template <class S>
struct TilePrefetch<S, Staging::pairs> {
  const float* __restrict__ rows;
  const float* __restrict__ queries;
  int n_rows, n_cols, query, lane;
  long row0;     ///< First matrix row of the block.
  float2 pair;   ///< Elements (r, 2 p) and (r, 2 p + 1) of the tile, in order.
  float feature; ///< Feature `lane` of the tile's columns for `query`.

  __device__ void fetch(int col0) {
    const long row = row0 + S::paired_row(query, lane);
    const int col = col0 + kPairFloats * S::staged_pair(lane);
    pair = make_float2(0.0f, 0.0f);
    if (row < n_rows) {
      const float* p = rows + row * n_cols + col;
      if (n_cols % 2 == 0 && col < n_cols) {
        pair = *reinterpret_cast<const float2*>(p); // even rows: one 8-byte load
      } else {
        pair.x = col < n_cols ? p[0] : 0.0f;
        pair.y = col + 1 < n_cols ? p[1] : 0.0f;
      }
    }
    feature =
        col0 + lane < n_cols ? queries[static_cast<long>(query) * n_cols + col0 + lane] : 0.0f;
  }
};

// [score_rows]
/// Stages the warp's share of the tile in layout `Layout`: floats-staged kinds with one 4-byte
/// store per tile row (a whole row each), pair-staged kinds with one 8-byte store of a pair of
/// a tile row, its floats swapped where `Pairs` (PairsInOrder, or a lesson's) says.
template <class S, class Layout, class Pairs>
__device__ __forceinline__ void stage(float* smem, const TilePrefetch<S>& next, int query,
                                      int lane) {
  constexpr Layout tile{};
  if constexpr (S::kStaging == Staging::floats) {
#pragma unroll
    for (int i = 0; i < S::kTileRowsPerWarp; ++i) { // each store writes one tile row
      kit::st_shared(smem + tile(S::staged_row(query, i), lane), next.row_value[i]);
    }
  } else {
    const PairStore s = Pairs::at(S::paired_row(query, lane), S::staged_pair(lane));
    const float2 v = s.swapped ? make_float2(next.pair.y, next.pair.x) : next.pair;
    kit::st_shared(reinterpret_cast<float2*>(smem + s.offset), v);
  }
}

/// score_rows of kind `S` with the tile in layout `Layout` (and, for pair-staged kinds, pair
/// store `Pairs`). Every shared access is one kit::ld_shared / kit::st_shared instruction,
/// issued where it is written (plain smem[...] reads of neighbouring columns would be fused
/// into wider loads, with other bank rules).
template <class S, class Layout, class Pairs = PairsInOrder<Layout>>
__global__ void __launch_bounds__(S::kBlockThreads,
                                  kit::min_blocks_per_sm(S::kBlockThreads, S::kMinBlocksPerSm))
    score_rows_tiled(const float* __restrict__ rows, int n_rows, int n_cols,
                     const float* __restrict__ queries, float* __restrict__ scores) {
  static_assert(holds_the_tile<S, Layout>());
  static_assert(kit::cosize<Layout>(S::kTileRows, kTileDim) <= S::kTileCapacity,
                "the tile must fit in kTileCapacity floats");
  __shared__ __align__(16) float smem[S::kSharedFloats]; // the tile, then the queries' features
  constexpr Layout tile{};
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int query = static_cast<int>(threadIdx.x) / kit::kWarpSize; // this warp's query
  const long row0 = static_cast<long>(blockIdx.x) * S::kTileRows;
  TilePrefetch<S> next{rows, queries, n_rows, n_cols, query, lane, row0};
  next.fetch(0);
  float score[S::kRowsPerLane] = {};
  for (int col0 = 0; col0 < n_cols; col0 += kTileDim) {
    stage<S, Layout, Pairs>(smem, next, query, lane); // the tile's rows
    kit::st_shared(smem + S::feature_offset(query, lane), next.feature);
    __syncthreads();
    next.fetch(col0 + kTileDim); // the next tile's global loads, in flight while we read
#pragma unroll(S::kStepUnroll)
    for (int s = 0; s < S::kSteps; ++s) {
      const int c = S::step_column(s);
      const Floats<S::kVec> f = load<S::kVec>(smem + S::feature_offset(query, c)); // a broadcast
#pragma unroll
      for (int h = 0; h < S::kRowsPerLane; ++h) {
        // kVec floats of row scored_row(lane, h): for kVec 1, lanes read a tile column
        const Floats<S::kVec> v = load<S::kVec>(smem + tile(S::scored_row(lane, h), c));
#pragma unroll
        for (int k = 0; k < S::kVec; ++k) {
          score[h] = fmaf(v.f[k], f.f[k], score[h]);
        }
      }
    }
    __syncthreads(); // the next tile overwrites this one
  }
#pragma unroll
  for (int h = 0; h < S::kRowsPerLane; ++h) { // rows past n_rows are not written
    const long row = row0 + S::scored_row(lane, h);
    if (row < n_rows) {
      scores[static_cast<long>(query) * n_rows + row] = score[h];
    }
  }
}
// [score_rows]

/// Throws std::invalid_argument when a load of kind `S` on layout `Layout` is misaligned: on
/// the GPU it would stop the kernel with a misaligned-address error and lose the context.
template <class S, class Layout>
void require_aligned(const char* kernel) {
  constexpr int row = first_misaligned_row<S, Layout>();
  if (row >= 0) {
    throw std::invalid_argument(
        std::string(kernel) + " not launched: the float" + std::to_string(S::kVec) +
        " loads of tile row " + std::to_string(row) + " start at float " +
        std::to_string(Layout{}(row, 0)) + ", not a multiple of " + std::to_string(S::kVec) + " (" +
        std::to_string(S::kVec * 4) + " bytes): a misaligned shared access faults on the GPU");
  }
}

/// Launches score_rows_tiled<S, Layout, Pairs> over the rows (all pointers device arrays; any
/// n_rows, n_cols >= 0): one block per kTileRows rows, nothing for no rows. Throws
/// std::invalid_argument, before any launch, when a load of the layout is misaligned (`name`
/// names the kernel in that message).
template <class S, class Layout, class Pairs = PairsInOrder<Layout>>
void launch(const char* name, const float* rows, int n_rows, int n_cols, const float* queries,
            float* scores, cudaStream_t stream) {
  require_aligned<S, Layout>(name);
  if (n_rows <= 0) {
    return;
  }
  const int blocks = (n_rows + S::kTileRows - 1) / S::kTileRows;
  score_rows_tiled<S, Layout, Pairs>
      <<<blocks, S::kBlockThreads, 0, stream>>>(rows, n_rows, n_cols, queries, scores);
  CUDA_CHECK_LAUNCH();
}

/// The __global__ function of score_rows_tiled<S, Layout, Pairs> (for the timer's occupancy
/// check).
template <class S, class Layout, class Pairs = PairsInOrder<Layout>>
const void* kernel_of() {
  return reinterpret_cast<const void*>(&score_rows_tiled<S, Layout, Pairs>);
}

} // namespace families::score_rows
