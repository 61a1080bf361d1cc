/// @file lessons/09_gemm_tiles/internal.cuh
/// @brief Lesson 09's plumbing: the global-memory side of the GEMM (the next K step's loads,
/// issued early; the edges of ragged matrices), the write of C and the launch. You do not need
/// to read or edit this file.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <demo.hpp>

#include "kit/cuda_check.hpp"

namespace lesson09::internal {

/// Whether `p` may be read and written as float4 (16-byte aligned).
__device__ inline bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

/// One thread's share of the next K step in registers: four consecutive floats of A's row
/// (a_load_row, a_load_col) and four of B's row (b_load_row, b_load_col), zeros outside the
/// matrices. fetch() issues the loads before the current step is read, so their latency hides
/// behind the multiply-adds. Rows whose length is a multiple of 4 load as float4.
struct SlicePrefetch {
  const float* __restrict__ a;
  const float* __restrict__ b;
  int m, n, k;
  int row0, col0; ///< The block's first row and column of C.
  int thread;     ///< threadIdx.x.
  float4 a_value; ///< A elements (row0 + a_load_row, k0 + a_load_col ... + 3).
  float4 b_value; ///< B elements (k0 + b_load_row, col0 + b_load_col ... + 3).

  __device__ static float4 load4(const float* row, int col, int len, bool vector) {
    if (vector) {
      return col < len ? *reinterpret_cast<const float4*>(row + col) : float4{0, 0, 0, 0};
    }
    float v[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      v[r] = col + r < len ? row[col + r] : 0.0f;
    }
    return {v[0], v[1], v[2], v[3]};
  }

  __device__ void fetch(int k0) {
    const int ar = row0 + a_load_row(thread);
    a_value = ar < m ? load4(a + static_cast<long>(ar) * k, k0 + a_load_col(thread), k,
                             k % 4 == 0 && aligned16(a))
                     : float4{0, 0, 0, 0};
    const int br = k0 + b_load_row(thread);
    b_value = br < k ? load4(b + static_cast<long>(br) * n, col0 + b_load_col(thread), n,
                             n % 4 == 0 && aligned16(b))
                     : float4{0, 0, 0, 0};
  }
};

/// Writes the thread's 8 x 8 tile of C: element (fragment_row(ty, i), Columns::col(tx, j)) of
/// the block's tile from acc[i][j]; nothing outside the matrix. Runs of four consecutive
/// columns (float4 fragments) are written as float4 where rows allow it.
template <class Columns>
__device__ void store_c(const float (&acc)[kFragM][kFragN], float* c, int m, int n, int row0,
                        int col0, int tx, int ty) {
  constexpr bool kRuns = float4_fragments<Columns>();
  const bool vector = kRuns && n % 4 == 0 && aligned16(c);
#pragma unroll
  for (int i = 0; i < kFragM; ++i) {
    const int row = row0 + fragment_row(ty, i);
    if (row >= m) {
      continue;
    }
    float* c_row = c + static_cast<long>(row) * n;
    if (vector) {
#pragma unroll
      for (int q = 0; q < kFragN / 4; ++q) {
        const int col = col0 + Columns::col(tx, 4 * q);
        if (col < n) {
          *reinterpret_cast<float4*>(c_row + col) =
              float4{acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]};
        }
      }
    } else {
#pragma unroll
      for (int j = 0; j < kFragN; ++j) {
        const int col = col0 + Columns::col(tx, j);
        if (col < n) {
          c_row[col] = acc[i][j];
        }
      }
    }
  }
}

/// Launches `kernel` over C: one block per 128 x 128 tile; nothing for an empty C. Throws
/// std::invalid_argument for negative sizes, an assignment that does not own every column
/// once, or one whose fragments float4 loads cannot read (kBVector 4).
template <class Columns, int kBVector, class Kernel>
void launch(Kernel kernel, const float* a, const float* b, float* c, int m, int n, int k,
            cudaStream_t stream) {
  if (!owns_every_column<Columns>()) {
    throw std::invalid_argument("the column assignment must give every column of the " +
                                std::to_string(kTileN) +
                                "-column tile to exactly one (t, j): the CPU tests say which");
  }
  if (kBVector == 4 && !float4_fragments<Columns>()) {
    throw std::invalid_argument("a float4 load at col(t, 4 q) must read elements 4 q ... 4 q + 3 "
                                "of the fragment (four consecutive columns, the first a multiple "
                                "of 4): the CPU tests say which");
  }
  if (m < 0 || n < 0 || k < 0) {
    throw std::invalid_argument("GEMM sizes must not be negative");
  }
  if (m == 0 || n == 0) {
    return;
  }
  const dim3 grid((n + kTileN - 1) / kTileN, (m + kTileM - 1) / kTileM);
  kernel<<<grid, kBlockThreads, 0, stream>>>(a, b, c, m, n, k);
  CUDA_CHECK_LAUNCH();
}

} // namespace lesson09::internal
