// The conflict-free twins the lesson's kernels are timed against: the same kernel (demo.cuh)
// with column assignments the bank model finds at their ideal. The tests own them, and find
// them with the model.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"

namespace lesson09::testing {

/// Element j of thread column t's fragment in runs of `Run` consecutive columns: column
/// A t + B (j / Run) + j % Run (with Run = 4, each run one float4 load).
template <int Run, int A, int B>
struct RunColumns {
  KIT_HD static constexpr int col(int t, int j) { return A * t + B * (j / Run) + j % Run; }
};

/// The strides (A, B) of a RunColumns assignment.
struct RunStrides {
  int a = 0;
  int b = 0;
};

/// The first strides, A then B ascending from 1, whose runs own every column of the tile
/// exactly once and whose B fragment reads - lane l reads `run` floats at column
/// col(lane_tx(l), run q) of a row, for every q - the model finds at their ideal ({0, 0} when
/// none is). A row of B is 128 floats, a whole number of bank rows, so row 0 stands for all.
template <int Run>
KIT_HD constexpr RunStrides conflict_free_runs() {
  for (int a = 1; a < kTileN; ++a) {
    for (int b = 1; b < kTileN; ++b) {
      const auto col = [&](int t, int j) { return a * t + b * (j / Run) + j % Run; };
      int owners[kTileN] = {};
      bool ok = true;
      for (int t = 0; t < kThreadsX && ok; ++t) {
        for (int j = 0; j < kFragN && ok; ++j) {
          const int c = col(t, j);
          ok = c >= 0 && c < kTileN && owners[c]++ == 0;
        }
      }
      for (int q = 0; q < kFragN / Run && ok; ++q) {
        kit::WarpAccess read;
        read.width = Run * static_cast<int>(sizeof(float));
        for (int lane = 0; lane < kit::kWarpSize; ++lane) {
          read.address[lane] =
              static_cast<std::uint32_t>(col(lane_tx(lane), Run * q) * sizeof(float));
        }
        ok = kit::wavefronts(read) == kit::ideal_wavefronts(read.width);
      }
      if (ok) {
        return {a, b};
      }
    }
  }
  return {};
}

/// Virtual threads: runs of one column (Part 2's twin).
using Strided = RunColumns<1, conflict_free_runs<1>().a, conflict_free_runs<1>().b>;
/// Runs of four consecutive columns, each read as one float4.
using StridedByFour = RunColumns<4, conflict_free_runs<4>().a, conflict_free_runs<4>().b>;
static_assert(conflict_free_runs<1>().a > 0 && conflict_free_runs<4>().a > 0,
              "some strides make every fragment read cost its ideal");

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
