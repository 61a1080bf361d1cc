// The lesson's GEMM variants as the GPU tests call them, random problems, and the CPU
// reference with its tolerance (GPU tests only).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <demo.hpp>

#include "device_problem.hpp"
#include "kit/timer.hpp"
#include "twin.hpp"

namespace lesson09::testing {

/// One launcher of the family, with its __global__ function (for the timer).
struct Variant {
  std::string name;   ///< e.g. "gemm_twin".
  Gemm run;           ///< The launcher.
  const void* kernel; ///< Its __global__ function.
};

/// Every launcher of the lesson, the seed's first.
inline std::vector<Variant> variants() {
  return {{"gemm_blocked_scalar", gemm_blocked_scalar, gemm_blocked_scalar_kernel()},
          {"gemm_strided_scalar", gemm_strided_scalar, gemm_strided_scalar_kernel()},
          {"gemm_exercise", gemm_exercise, gemm_exercise_kernel()},
          {"gemm_blocked_float4", gemm_blocked_float4, gemm_blocked_float4_kernel()},
          {"gemm_strided_by_four", gemm_strided_by_four, gemm_strided_by_four_kernel()},
          {"gemm_exercise_float4", gemm_exercise_float4, gemm_exercise_float4_kernel()}};
}

/// The launcher called `name` (throws std::out_of_range for another name).
inline Variant variant(const std::string& name) {
  for (const Variant& v : variants()) {
    if (v.name == name) {
      return v;
    }
  }
  throw std::out_of_range("no GEMM variant " + name);
}

/// A variant on (a, b, c, m, n, k) as the timer wants it.
inline kit::Launch gemm_launch(const Variant& v, const float* a, const float* b, float* c, int m,
                               int n, int k) {
  return {v.name, v.kernel, kBlockThreads, 0, [=](cudaStream_t s) { v.run(a, b, c, m, n, k, s); }};
}

/// Floating-point operations of an m x n x k GEMM (a multiply and an add per term).
inline double gemm_flops(int m, int n, int k) {
  return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

/// GFLOP/s of an m x n x k GEMM that took `ms` milliseconds.
inline double gflops(int m, int n, int k, double ms) {
  return ms > 0 ? gemm_flops(m, n, k) / (ms * 1e-3) / 1e9 : 0.0;
}

/// One element of the CPU reference and the error a float kernel may make on it.
struct Expected {
  double value = 0; ///< The element, in double.
  double tol = 0;   ///< Allowed absolute error (gemm_tolerance).
};

/// C = A B in double, row-major, with each element's tolerance.
inline std::vector<Expected> reference(const std::vector<float>& a, const std::vector<float>& b,
                                       int m, int n, int k) {
  std::vector<double> value(static_cast<std::size_t>(m) * n, 0.0);
  std::vector<double> abs_sum(value.size(), 0.0);
  for (int i = 0; i < m; ++i) {
    for (int p = 0; p < k; ++p) {
      const double x = a[static_cast<std::size_t>(i) * k + p];
      const float* b_row = b.data() + static_cast<std::size_t>(p) * n;
      double* v = value.data() + static_cast<std::size_t>(i) * n;
      double* s = abs_sum.data() + static_cast<std::size_t>(i) * n;
      for (int j = 0; j < n; ++j) {
        const double term = x * b_row[j];
        v[j] += term;
        s[j] += std::abs(term);
      }
    }
  }
  std::vector<Expected> out(value.size());
  for (std::size_t e = 0; e < out.size(); ++e) {
    out[e] = {value[e], gemm_tolerance(k, abs_sum[e])};
  }
  return out;
}

} // namespace lesson09::testing
