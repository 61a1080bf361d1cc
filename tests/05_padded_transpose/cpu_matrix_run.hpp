// The CPU run of lesson 05's kernels (kernels_on_cpu.cpp) on a matrix of distinct bit patterns:
// the run (requests, findings, launches) and the input and output bits, for the CPU tests of the
// student's kernel and of the demos.
#pragma once

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include <demo.hpp>

#include "kit/cpu_run.hpp"
#include "matrix_check.hpp"

namespace lesson05::testing {

/// One CPU run of a kernel on a matrix whose elements are the bit patterns 1, 2, 3, ...
struct CpuMatrixRun {
  kit::cpu::KernelRun run;        ///< What the CPU run recorded and found.
  std::vector<std::uint32_t> in;  ///< The input's bits, row-major.
  std::vector<std::uint32_t> out; ///< The output's bits, as the kernel left them.
};

/// Runs `op` on the CPU on a matrix of shape `s` (exact-size buffers with guard pages after
/// them), logs the run's counts under `name` for the GPU's cross-check, and returns it.
inline CpuMatrixRun run_on_cpu(const char* name, MatrixOp op, const Shape& s) {
  CpuMatrixRun r;
  r.in.resize(s.size());
  std::iota(r.in.begin(), r.in.end(), 1u);
  std::vector<float> values(s.size());
  std::memcpy(values.data(), r.in.data(), r.in.size() * sizeof(float));
  kit::cpu::GuardedBuffer<float> in(s.size(), "in"), out(s.size(), "out");
  in.assign(values);
  r.run = kit::cpu::record([&] { op(in.get(), out.get(), s.rows, s.cols, nullptr); });
  kit::cpu::log_counts(name, s.rows, s.cols, r.run);
  const std::vector<float> result = out.to_vector();
  r.out.resize(s.size());
  std::memcpy(r.out.data(), result.data(), r.out.size() * sizeof(float));
  return r;
}

} // namespace lesson05::testing
