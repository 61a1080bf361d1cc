// The shared-memory instructions of lesson04::eval_polys and of its twin, built from the
// layouts the kernel is instantiated with (host code: the CPU tests use it too).
#pragma once

#include <cstdint>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/trace.hpp"
#include "twin.hpp"

namespace lesson04::testing {

/// The student's CoefLayout is the layout of the block's whole table, of floats (a compile error
/// names the rule otherwise).
static_assert(holds_the_table<CoefLayout>());

/// The trace of eval_polys_tabled<Table>. Every table access is one 4-byte kit::st_shared /
/// kit::ld_shared instruction (never fused, moved or dropped), and every block stages its
/// table once and reads it for each of its kPointTiles tiles of points unconditionally (zeros
/// past the last polynomial and point; only the global stores are masked). So each store
/// repeats once per block, and each Horner step once per block and tile of points.
template <class Table>
kit::Trace eval_polys_trace(int n_polys, int n_points) {
  static_assert(holds_the_table<Table>());
  kit::Trace t;
  if (n_polys <= 0 || n_points <= 0) {
    return t;
  }
  const std::uint64_t blocks =
      static_cast<std::uint64_t>((n_points + kPointsPerBlock - 1) / kPointsPerBlock) *
      static_cast<std::uint64_t>((n_polys + kPolysPerBlock - 1) / kPolysPerBlock);
  for (int warp = 0; warp < kBlockThreads / kit::kWarpSize; ++warp) {
    for (int pass = 0; pass < kStagePasses; ++pass) {
      t.add(kit::SharedOp::store,
            kit::warp_access(
                Table{}, [&](int lane) { return staged_coef(warp * kit::kWarpSize + lane, pass); }),
            blocks, "coefficient store");
    }
    for (int k = kCoefs - 1; k >= 0; --k) {
      t.add(kit::SharedOp::load,
            kit::warp_access(Table{},
                             [&](int lane) {
                               return kit::Coord{block_row(warp, lane), k};
                             }),
            blocks * kPointTiles, "Horner step (coefficient " + std::to_string(k) + ")");
    }
  }
  return t;
}

/// The trace of the student's eval_polys.
inline kit::Trace exercise_trace(int n_polys, int n_points) {
  return eval_polys_trace<CoefLayout>(n_polys, n_points);
}

/// The trace of eval_polys_twin.
inline kit::Trace twin_trace(int n_polys, int n_points) {
  return eval_polys_trace<TwinCoefLayout>(n_polys, n_points);
}

/// The model's slowdown of eval_polys over its twin. Every instruction repeats once per block
/// (times kPointTiles for the Horner steps), so one block gives the ratio of any shape.
inline double model_ratio(int n_polys, int n_points) {
  return kit::model_ratio(exercise_trace(n_polys, n_points), twin_trace(n_polys, n_points));
}

} // namespace lesson04::testing
