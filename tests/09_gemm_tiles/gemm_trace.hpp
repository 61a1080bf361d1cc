// The shared-memory instructions of lesson09's GEMM kernels, built from the same index
// functions and layouts the kernel family uses (host code: the CPU tests use it too).
#pragma once

#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/trace.hpp"
#include "twin.hpp"

namespace lesson09::testing {

/// The trace of gemm_tiled<Columns, kBVector, kA> on an m x n x k problem. Every shared access
/// is one kit::ld_shared / kit::st_shared instruction, and every block stages and reads every
/// K step unconditionally (zeros outside the matrices), so each instruction repeats once per
/// block and K step. Warp w holds thread rows 2 w and 2 w + 1.
template <class Columns, int kBVector, ASide kA>
kit::Trace gemm_trace(int m, int n, int k) {
  kit::Trace t;
  if (m <= 0 || n <= 0 || k <= 0) {
    return t;
  }
  const auto blocks = static_cast<std::uint64_t>((m + kTileM - 1) / kTileM) *
                      static_cast<std::uint64_t>((n + kTileN - 1) / kTileN);
  const auto steps = static_cast<std::uint64_t>((k + kTileK - 1) / kTileK);
  const std::uint64_t repeat = blocks * steps;
  constexpr int kWarps = kBlockThreads / kit::kWarpSize;
  for (int w = 0; w < kWarps; ++w) {
    const auto thread = [w](int lane) { return w * kit::kWarpSize + lane; };
    if (kA == ASide::column) {
      t.add(kit::SharedOp::store,
            kit::warp_access(
                AColumnLayout{},
                [&](int lane) {
                  return kit::Coord{a_load_row(thread(lane)), a_load_col(thread(lane))};
                },
                4),
            repeat, "A slice store (float4)");
    } else {
      for (int r = 0; r < 4; ++r) {
        t.add(kit::SharedOp::store,
              kit::warp_access(
                  ATransposedLayout{},
                  [&](int lane) {
                    return kit::Coord{a_load_col(thread(lane)) + r, a_load_row(thread(lane))};
                  }),
              repeat, "A transposing store");
      }
    }
    t.add(kit::SharedOp::store,
          kit::warp_access(
              BLayout{},
              [&](int lane) {
                return kit::Coord{b_load_row(thread(lane)), b_load_col(thread(lane))};
              },
              4),
          repeat, "B slice store (float4)");
    for (int kk = 0; kk < kTileK; ++kk) {
      if (kA == ASide::column) {
        for (int i = 0; i < kFragM; ++i) {
          t.add(kit::SharedOp::load, a_column_read_demo(i, kk, w).access, repeat,
                "A fragment read (column segment)");
        }
      } else {
        for (int h = 0; h < kFragM / 4; ++h) {
          t.add(kit::SharedOp::load, a_transposed_read_demo(h, kk, w).access, repeat,
                "A fragment read (float4)");
        }
      }
      if (kBVector == 1) {
        for (int j = 0; j < kFragN; ++j) {
          t.add(kit::SharedOp::load, b_scalar_read_demo<Columns>("", j, kk).access, repeat,
                "B fragment read (4 bytes)");
        }
      } else {
        for (int q = 0; q < kFragN / 4; ++q) {
          t.add(kit::SharedOp::load, b_float4_read_demo<Columns>("", q, kk).access, repeat,
                "B fragment read (float4)");
        }
      }
    }
  }
  return t.compacted();
}

/// The traces of the lesson's launchers.
inline kit::Trace blocked_scalar_trace(int m, int n, int k) {
  return gemm_trace<Blocked, 1, ASide::column>(m, n, k);
}
/// See blocked_scalar_trace().
inline kit::Trace strided_scalar_trace(int m, int n, int k) {
  return gemm_trace<Strided, 1, ASide::column>(m, n, k);
}
/// See blocked_scalar_trace().
inline kit::Trace exercise_trace(int m, int n, int k) {
  return gemm_trace<FragmentColumns, 1, ASide::column>(m, n, k);
}
/// See blocked_scalar_trace().
inline kit::Trace blocked_float4_trace(int m, int n, int k) {
  return gemm_trace<Blocked, 4, ASide::transposed>(m, n, k);
}
/// See blocked_scalar_trace().
inline kit::Trace strided_by_four_trace(int m, int n, int k) {
  return gemm_trace<StridedByFour, 4, ASide::transposed>(m, n, k);
}
/// See blocked_scalar_trace().
inline kit::Trace exercise_float4_trace(int m, int n, int k) {
  return gemm_trace<Float4Columns, 4, ASide::transposed>(m, n, k);
}

} // namespace lesson09::testing
