// Part 3 on the CPU: your kernel itself (exercise.cu, compiled by the host compiler) runs with
// each block's threads as fibers. Every shape must transpose exactly, with no race, no access
// outside the matrix or the tile and no barrier that a thread misses; and the shared-memory
// requests your kernel issues, warp by warp, must be the ones the trace of your functions
// describes (the trace the GPU's counters are held to), the padded tile's each at its ideal.
// Timing stays the GPU's.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "cpu_matrix_run.hpp"
#include "kit/cpu_run.hpp"
#include "kit/testing_exercise.hpp"
#include "kit/testing_matrix.hpp"
#include "matrix_check.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::testing::Shape;

using lesson05::testing::kKernelShapes;

/// The trace of transpose_tile_kernel<Tile> on a rows x cols matrix, entry by entry (each
/// with the lane offsets it stands for).
template <class Tile>
kit::Trace exact_trace(int rows, int cols) {
  std::map<std::pair<int, int>, std::uint64_t> kinds;
  for (int row0 = 0; row0 < rows; row0 += lesson05::kTileDim) {
    for (int col0 = 0; col0 < cols; col0 += lesson05::kTileDim) {
      ++kinds[{lesson05::tile_extent(row0, rows), lesson05::tile_extent(col0, cols)}];
    }
  }
  kit::Trace t;
  for (const auto& [extents, count] : kinds) {
    lesson05::testing::add_tile<Tile>(t, extents.first, extents.second, count);
  }
  return t;
}

/// Runs `op` on the CPU on every kernel shape and checks the output, the findings and the
/// requests against the trace of Tile. Each kind of failure is reported once, for the first
/// shape that shows it, with the count of shapes that repeat it, at the line of exercise.cu
/// (or exercise.hpp) it names. The messages do not name the kernel (the test does): the same
/// mistake in the kernel both tiles share reads the same in both tests.
template <class Tile>
void expect_kernel_on_cpu(const char* name, lesson05::MatrixOp op, bool conflict_free) {
  kit::testing::FailuresByKind failures;
  const auto add = [&](const std::string& kind, const std::string& shape,
                       const std::string& message) {
    failures.add(kind, shape, message, KIT_EXERCISE_LINE_IN(message));
  };
  for (const Shape s : kKernelShapes) {
    const std::string shape = s.name();
    const lesson05::testing::CpuMatrixRun r = lesson05::testing::run_on_cpu(name, op, s);
    const kit::cpu::KernelRun& run = r.run;
    if (!run.findings.empty()) {
      add("findings", shape, "the CPU run of your kernel found:\n" + run.findings_text());
      continue; // what it wrote, and how, means little after a race or a fault
    }
    const ::testing::AssertionResult output = kit::testing::same_transpose<std::uint32_t>(
        r.out, r.in, s, lesson05::kTileDim, [&](std::size_t, std::uint32_t value) {
          const auto how = run.moved(&value, sizeof value);
          return how ? "On the CPU, " + *how : std::string();
        });
    if (!output) {
      add("output", shape, output.message());
    }
    if (run.requests.empty()) {
      failures.add("no requests", shape,
                   "no shared-memory access: the kernel does not stage its tile through a "
                   "kit::SharedTile yet",
                   KIT_EXERCISE_PLACE("transpose_tile_kernel"));
      continue;
    }
    const auto difference = kit::cpu::compare_requests(run, exact_trace<Tile>(s.rows, s.cols));
    if (difference) {
      add("requests", shape,
          "your kernel's shared-memory requests are not those of your functions (store_coord, "
          "load_coord, tile_extent, the layout):\n  " +
              *difference);
    }
    if (conflict_free) {
      if (const auto over = run.first_over_ideal()) {
        // Which banks the accesses ask is the layout's doing: the failure points there.
        failures.add("ideal", shape, "the padded tile must cost the ideal: " + *over,
                     KIT_EXERCISE_PLACE("PaddedLayout"));
      }
    }
  }
  failures.report();
}

TEST(KernelOnCpu, TiledKernelRunsAsItsTrace) {
  expect_kernel_on_cpu<lesson05::TiledLayout>("transpose_tiled", lesson05::transpose_tiled, false);
}

TEST(KernelOnCpu, PaddedKernelRunsConflictFree) {
  expect_kernel_on_cpu<lesson05::PaddedLayout>("transpose_padded", lesson05::transpose_padded,
                                               true);
}

// Not a test of the lesson's (GoogleTest runs a DISABLED_ test only when asked): where the grader
// finds the counters refused, a GPU counter test runs this program for the CPU recording of its
// launches ($KIT_CPU_RUNS, kit/testing_cpu_run.hpp), each logged as run_on_cpu logs a run.
TEST(CpuRecording, DISABLED_RequestedLaunches) {
  const std::map<std::string, lesson05::MatrixOp> ops = {
      {"copy_matrix", lesson05::copy_matrix},
      {"transpose_naive", lesson05::transpose_naive},
      {"transpose_tiled", lesson05::transpose_tiled},
      {"transpose_padded", lesson05::transpose_padded}};
  for (const kit::RecordedLaunch& launch : kit::cpu::requested_launches()) {
    const auto op = ops.find(launch.kernel);
    ASSERT_NE(op, ops.end()) << "lesson 05 has no kernel " << launch.kernel;
    lesson05::testing::run_on_cpu(launch.kernel.c_str(), op->second, {launch.rows, launch.cols});
  }
}

} // namespace
