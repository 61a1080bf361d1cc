// The CPU run of the lesson's transposes (kernels_on_cpu.cpp) on small shapes, checked: the
// output against the CPU transpose, no finding (race, bounds, barrier), and the shared-memory
// requests, warp by warp, against the trace of the lesson's geometry (half_trace.hpp).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/cpu_run.hpp"
#include "kit/testing_matrix.hpp"

namespace lesson06::testing {

/// Odd sides (every tile one half per access), full tiles only (every tile in pairs), even
/// sides with ragged edges (pairs inside, halves at the edges).
inline std::vector<kit::testing::Shape> cpu_kernel_shapes() {
  return {{70, 45}, {64, 96}, {62, 34}};
}

/// Runs `op` on the CPU on every shape of cpu_kernel_shapes() and checks it; with
/// `conflict_free`, every request must also cost its ideal.
inline void expect_kernel_on_cpu(const char* name, HalfMatrixOp op, bool pairs,
                                 bool conflict_free) {
  for (const kit::testing::Shape s : cpu_kernel_shapes()) {
    SCOPED_TRACE(std::string(name) + " on a " + s.name() + " matrix");
    std::vector<std::uint16_t> bits(s.size());
    for (std::size_t i = 0; i < bits.size(); ++i) {
      bits[i] = static_cast<std::uint16_t>(i * 2654435761u >> 7); // distinct enough, no 0xffff
    }
    std::vector<__half> values(s.size());
    std::memcpy(static_cast<void*>(values.data()), bits.data(), bits.size() * sizeof(__half));
    kit::cpu::GuardedBuffer<__half> in(s.size(), "in"), out(s.size(), "out");
    in.assign(values);
    const kit::cpu::KernelRun run =
        kit::cpu::record([&] { op(in.get(), out.get(), s.rows, s.cols, nullptr); });
    kit::cpu::log_counts(name, s.rows, s.cols, run);
    ASSERT_TRUE(run.findings.empty()) << "the CPU run of the kernel found:\n"
                                      << run.findings_text();
    const std::vector<__half> result = out.to_vector();
    std::vector<std::uint16_t> got(s.size());
    std::memcpy(got.data(), static_cast<const void*>(result.data()), got.size() * sizeof(__half));
    EXPECT_TRUE(kit::testing::same_transpose(got, bits, s, kTileDim));
    const auto difference =
        kit::cpu::compare_requests(run, transpose_trace_entries(s.rows, s.cols, pairs));
    EXPECT_FALSE(difference.has_value())
        << "the kernel's shared-memory requests are not those of the lesson's geometry "
           "(demo.hpp) through your tile:\n  "
        << *difference;
    if (conflict_free) {
      const auto over = run.first_over_ideal();
      EXPECT_FALSE(over.has_value()) << "every request must cost the ideal: " << *over;
    }
  }
}

} // namespace lesson06::testing
