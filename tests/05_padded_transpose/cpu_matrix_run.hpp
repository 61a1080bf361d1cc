// The CPU run of lesson 05's kernels (kernels_on_cpu.cpp) on a matrix of distinct bit patterns:
// the run (requests, findings, launches) and the input and output bits, for the CPU tests of the
// student's kernel and of the demos.
#pragma once

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include <demo.hpp>

#include "kit/cpu_run.hpp"
#include "matrix_check.hpp"

namespace lesson05::testing {

/// One CPU run of a kernel on a matrix of floats, by their bits.
using CpuMatrixRun = kit::cpu::MatrixRun<std::uint32_t>;

/// Runs `op` on the CPU on a matrix of shape `s` whose elements are the bit patterns 1, 2, 3,
/// ... (kit::cpu::run_matrix_kernel: guarded buffers, the counts logged under `name`).
inline CpuMatrixRun run_on_cpu(const char* name, MatrixOp op, const Shape& s) {
  std::vector<std::uint32_t> bits(s.size());
  std::iota(bits.begin(), bits.end(), 1u);
  return kit::cpu::run_matrix_kernel<float>(name, op, s.rows, s.cols, std::move(bits));
}

} // namespace lesson05::testing
