// The conflict-free twins the lesson's kernels are timed against: the same kernel (demo.cuh)
// with the column assignments that answer Parts 2 and 3. The tests own them.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson09::testing {

/// Virtual threads: thread column t owns columns t, t + 16, ..., t + 112 (one column in each
/// of 8 groups of 16).
///
///     j:       0          1            ...  7
///     columns: t (0-15)   16 + t       ...  112 + t
struct Strided {
  KIT_HD static constexpr int col(int t, int j) { return t + kThreadsX * j; }
};

/// Strided by four: thread column t owns columns 4 t ... 4 t + 3 and 64 + 4 t ... 64 + 4 t + 3,
/// two runs of four consecutive columns that one float4 load each can read.
///
///     j:       0 1 2 3               4 5 6 7
///     columns: 4t 4t+1 4t+2 4t+3     64+4t ... 64+4t+3
struct StridedByFour {
  KIT_HD static constexpr int col(int t, int j) { return 4 * t + 4 * kThreadsX * (j / 4) + j % 4; }
};

/// Virtual threads, Part 2's twin: Strided columns, scalar B reads, the A side as the seed's
/// (twin.cu).
void gemm_strided_scalar(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream = nullptr);
/// Part 3's twin: StridedByFour columns read as float4, the A side transposed (twin.cu).
void gemm_strided_by_four(const float* a, const float* b, float* c, int m, int n, int k,
                          cudaStream_t stream = nullptr);
/// The __global__ function behind gemm_strided_scalar().
const void* gemm_strided_scalar_kernel();
/// The __global__ function behind gemm_strided_by_four().
const void* gemm_strided_by_four_kernel();

} // namespace lesson09::testing
