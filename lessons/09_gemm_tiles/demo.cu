#include <demo.hpp>
#include <exercise.hpp>

#include "internal.cuh"
#include "kit/shared_access.cuh"

namespace lesson09 {
namespace {

// [fragments]
/// Thread row ty's A fragment at step kk: A rows fragment_row(ty, 0 ... 7) of column kk.
template <ASide kA>
__device__ void read_a(const float* as, int ty, int kk, float (&frag)[kFragM]) {
  if constexpr (kA == ASide::column) { // As[128][8]: eight 4-byte loads down column kk
#pragma unroll
    for (int i = 0; i < kFragM; ++i) {
      frag[i] = kit::ld_shared(as + AColumnLayout{}(fragment_row(ty, i), kk));
    }
  } else { // As[8][128]: the fragment is 8 consecutive floats of row kk, two float4 loads
#pragma unroll
    for (int h = 0; h < kFragM / 4; ++h) {
      const float4 v = kit::ld_shared(
          reinterpret_cast<const float4*>(as + ATransposedLayout{}(kk, fragment_row(ty, 4 * h))));
      frag[4 * h] = v.x, frag[4 * h + 1] = v.y, frag[4 * h + 2] = v.z, frag[4 * h + 3] = v.w;
    }
  }
}

/// Thread column tx's B fragment at step kk: B row kk, columns Columns::col(tx, 0 ... 7).
template <class Columns, int kBVector>
__device__ void read_b(const float* bs, int tx, int kk, float (&frag)[kFragN]) {
  if constexpr (kBVector == 1) { // eight 4-byte loads
#pragma unroll
    for (int j = 0; j < kFragN; ++j) {
      frag[j] = kit::ld_shared(bs + BLayout{}(kk, Columns::col(tx, j)));
    }
  } else { // two float4 loads: columns col(tx, 4 q) ... col(tx, 4 q) + 3
#pragma unroll
    for (int q = 0; q < kFragN / 4; ++q) {
      const float4 v = kit::ld_shared(
          reinterpret_cast<const float4*>(bs + BLayout{}(kk, Columns::col(tx, 4 * q))));
      frag[4 * q] = v.x, frag[4 * q + 1] = v.y, frag[4 * q + 2] = v.z, frag[4 * q + 3] = v.w;
    }
  }
}
// [fragments]

// [stage]
/// Stores the thread's share of the next K step: four floats of A (as one float4 in
/// As[128][8], or as four floats down column a_load_row of As[8][128]) and one float4 of B.
template <ASide kA>
__device__ void stage(float* as, float* bs, int t, const float4& a, const float4& b) {
  if constexpr (kA == ASide::column) {
    kit::st_shared(reinterpret_cast<float4*>(as + AColumnLayout{}(a_load_row(t), a_load_col(t))),
                   a);
  } else {
    const float v[4] = {a.x, a.y, a.z, a.w};
#pragma unroll
    for (int r = 0; r < 4; ++r) { // the transposing store
      kit::st_shared(as + ATransposedLayout{}(a_load_col(t) + r, a_load_row(t)), v[r]);
    }
  }
  kit::st_shared(reinterpret_cast<float4*>(bs + BLayout{}(b_load_row(t), b_load_col(t))), b);
}
// [stage]

// [gemm]
/// C = A B for one 128 x 128 tile of C per block. `Columns` assigns the tile's columns to
/// thread columns, `kBVector` (1 or 4) is the width of a B fragment load in floats, `kA` how
/// the A slice is staged and read. Every shared access is one kit::ld_shared / kit::st_shared
/// instruction, issued where it is written.
template <class Columns, int kBVector, ASide kA>
__global__ void __launch_bounds__(kBlockThreads,
                                  kit::min_blocks_per_sm(kBlockThreads, kMinBlocksPerSm))
    gemm_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
               int m, int n, int k) {
  __shared__ __align__(16) float as[kit::cosize<AColumnLayout>()]; // A's 128 x 8 slice
  __shared__ __align__(16) float bs[kit::cosize<BLayout>()];       // B's 8 x 128 slice
  const int t = static_cast<int>(threadIdx.x);
  const int tx = t % kThreadsX, ty = t / kThreadsX;
  const int row0 = static_cast<int>(blockIdx.y) * kTileM;
  const int col0 = static_cast<int>(blockIdx.x) * kTileN;
  internal::SlicePrefetch next{a, b, m, n, k, row0, col0, t};
  next.fetch(0);
  float acc[kFragM][kFragN] = {};
  for (int k0 = 0; k0 < k; k0 += kTileK) {
    stage<kA>(as, bs, t, next.a_value, next.b_value);
    __syncthreads();
    next.fetch(k0 + kTileK); // the next step's global loads, in flight while we compute
#pragma unroll
    for (int kk = 0; kk < kTileK; ++kk) {
      float fa[kFragM], fb[kFragN];
      read_a<kA>(as, ty, kk, fa);
      read_b<Columns, kBVector>(bs, tx, kk, fb);
#pragma unroll
      for (int i = 0; i < kFragM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragN; ++j) {
          acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
        }
      }
    }
    __syncthreads(); // the next step overwrites the slices
  }
  internal::store_c<Columns>(acc, c, m, n, row0, col0, tx, ty);
}
// [gemm]

/// The variants of the lesson, by name.
constexpr auto kBlockedScalar = gemm_tiled<Blocked, 1, ASide::column>;
constexpr auto kStridedScalar = gemm_tiled<Strided, 1, ASide::column>;
constexpr auto kExercise = gemm_tiled<FragmentColumns, 1, ASide::column>;
constexpr auto kBlockedFloat4 = gemm_tiled<Blocked, 4, ASide::transposed>;
constexpr auto kStridedByFour = gemm_tiled<StridedByFour, 4, ASide::transposed>;
constexpr auto kExerciseFloat4 = gemm_tiled<Float4Columns, 4, ASide::transposed>;

} // namespace

void gemm_blocked_scalar(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream) {
  internal::launch<Blocked, 1>(kBlockedScalar, a, b, c, m, n, k, stream);
}
void gemm_strided_scalar(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream) {
  internal::launch<Strided, 1>(kStridedScalar, a, b, c, m, n, k, stream);
}
void gemm_exercise(const float* a, const float* b, float* c, int m, int n, int k,
                   cudaStream_t stream) {
  internal::launch<FragmentColumns, 1>(kExercise, a, b, c, m, n, k, stream);
}
void gemm_blocked_float4(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream) {
  internal::launch<Blocked, 4>(kBlockedFloat4, a, b, c, m, n, k, stream);
}
void gemm_strided_by_four(const float* a, const float* b, float* c, int m, int n, int k,
                          cudaStream_t stream) {
  internal::launch<StridedByFour, 4>(kStridedByFour, a, b, c, m, n, k, stream);
}
void gemm_exercise_float4(const float* a, const float* b, float* c, int m, int n, int k,
                          cudaStream_t stream) {
  internal::launch<Float4Columns, 4>(kExerciseFloat4, a, b, c, m, n, k, stream);
}

const void* gemm_blocked_scalar_kernel() {
  return reinterpret_cast<const void*>(kBlockedScalar);
}
const void* gemm_strided_scalar_kernel() {
  return reinterpret_cast<const void*>(kStridedScalar);
}
const void* gemm_exercise_kernel() {
  return reinterpret_cast<const void*>(kExercise);
}
const void* gemm_blocked_float4_kernel() {
  return reinterpret_cast<const void*>(kBlockedFloat4);
}
const void* gemm_strided_by_four_kernel() {
  return reinterpret_cast<const void*>(kStridedByFour);
}
const void* gemm_exercise_float4_kernel() {
  return reinterpret_cast<const void*>(kExerciseFloat4);
}

} // namespace lesson09
