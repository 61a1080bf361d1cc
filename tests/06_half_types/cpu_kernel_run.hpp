// The CPU run of the lesson's transposes (kernels_on_cpu.cpp) on small shapes, checked: the
// output against the CPU transpose, no finding (race, bounds, barrier), and the shared-memory
// requests, warp by warp, against the trace of the lesson's geometry (half_trace.hpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/cpu_run.hpp"
#include "kit/testing_exercise.hpp"
#include "kit/testing_matrix.hpp"

namespace lesson06::testing {

/// Odd sides (every tile one half per access), full tiles only (every tile in pairs), even
/// sides with ragged edges (pairs inside, halves at the edges).
inline std::vector<kit::testing::Shape> cpu_kernel_shapes() {
  return {{70, 45}, {64, 96}, {62, 34}};
}

/// What a request over its ideal means when the course's kernel (internal.cuh) issued it: the
/// line is the course's, the banks are your tile's.
inline std::string over_ideal_hint(const std::string& over) {
  if (over.find("internal.cuh") == std::string::npos) {
    return "";
  }
  return "\nThat access is the course's tile code (internal.cuh, which you need not read); which "
         "banks it asks is decided by your tile: HalfTileLayout and kHalfPad in exercise.hpp.";
}

/// `n` (at most 65535) distinct 16-bit values, none of them the poison 0xffff, in a scrambled
/// order: every input element a value of its own, so that a value names where it came from.
inline std::vector<std::uint16_t> distinct_halves(std::size_t n) {
  constexpr std::uint32_t kValues = 0xffff; // 0 .. 0xfffe
  constexpr std::uint32_t kStep = 40499;    // i -> i * kStep % kValues is one-to-one:
  static_assert(std::gcd(kValues, kStep) == 1, "the step must be coprime to the count of values");
  std::vector<std::uint16_t> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<std::uint16_t>(static_cast<std::uint32_t>(i) * kStep % kValues);
  }
  return v;
}

/// One CPU run of a transpose on a matrix of halves, by their bits.
using CpuHalfRun = kit::cpu::MatrixRun<std::uint16_t>;

/// Runs `op` on the CPU on a matrix of shape `s` of distinct_halves
/// (kit::cpu::run_matrix_kernel: guarded buffers, the counts logged under `name`).
inline CpuHalfRun run_on_cpu(const char* name, HalfMatrixOp op, kit::testing::Shape s) {
  return kit::cpu::run_matrix_kernel<__half>(name, op, s.rows, s.cols, distinct_halves(s.size()));
}

/// Runs `op` on the CPU on every shape of cpu_kernel_shapes() and checks it; with
/// `conflict_free`, every request must also cost its ideal. Each kind of failure is reported
/// once, for the first shape that shows it, with the count of shapes that repeat it, at the
/// line of the student's files it names (a conflict: at HalfTileLayout in exercise.hpp, whose
/// banks they are).
inline void expect_kernel_on_cpu(const char* name, HalfMatrixOp op, bool pairs,
                                 bool conflict_free) {
  kit::testing::FailuresByKind failures;
  const auto add = [&](const std::string& kind, const std::string& shape,
                       const std::string& message) {
    failures.add(kind, shape, message, KIT_EXERCISE_LINE_IN(message));
  };
  for (const kit::testing::Shape s : cpu_kernel_shapes()) {
    const std::string shape = s.name();
    const CpuHalfRun r = run_on_cpu(name, op, s);
    const kit::cpu::KernelRun& run = r.run;
    if (!run.findings.empty()) {
      add("findings", shape,
          std::string("the CPU run of ") + name + " found:\n" + run.findings_text());
      continue; // what it wrote, and how, means little after a race or a fault
    }
    const ::testing::AssertionResult output = kit::testing::same_transpose<std::uint16_t>(
        r.out, r.in, s, kTileDim, [&](std::size_t, std::uint16_t value) {
          const auto how = run.moved(&value, sizeof value);
          return how ? "On the CPU, " + *how : std::string();
        });
    if (!output) {
      add("output", shape, std::string(name) + ": " + output.message());
    }
    const auto difference =
        kit::cpu::compare_requests(run, transpose_trace_entries(s.rows, s.cols, pairs));
    if (difference) {
      add("requests", shape,
          std::string(name) +
              ": the kernel's shared-memory requests are not those of "
              "the lesson's geometry (demo.hpp) through your tile:\n  " +
              *difference);
    }
    if (conflict_free) {
      if (const auto over = run.first_over_ideal()) {
        // Which banks the accesses ask is the tile's doing, its pad: the failure points there.
        failures.add("ideal", shape,
                     std::string(name) + ": every request must cost the ideal: " + *over +
                         over_ideal_hint(*over),
                     KIT_EXERCISE_PLACE("kHalfPad"));
      }
    }
  }
  failures.report();
}

} // namespace lesson06::testing
