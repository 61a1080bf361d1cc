// A large random GEMM on the device, cuBLAS's answer to it and the tolerance of every element
// (GPU tests only): for comparisons at sizes a CPU reference cannot reach.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cublas_sgemm.hpp"
#include "gemm_run.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace lesson09::testing {

/// Random A (m x k) and B (k x n) in [-1, 1), cuBLAS's C, and each element's tolerance:
/// gemm_tolerance(k, (|A| |B|)(i, j)) for the kernel and again for cuBLAS (both round).
struct Problem {
  int m, n, k;
  kit::DeviceBuffer<float> a, b, c, reference;
  std::vector<float> want;       ///< cuBLAS's C.
  std::vector<double> tolerance; ///< Allowed |kernel - cuBLAS| per element.

  Problem(Cublas& cublas, int m_, int n_, int k_, std::uint64_t seed)
      : m(m_), n(n_), k(k_), c(static_cast<std::size_t>(m_) * n_),
        reference(static_cast<std::size_t>(m_) * n_) {
    std::vector<float> ha = kit::testing::random_floats(static_cast<std::size_t>(m) * k, seed);
    std::vector<float> hb =
        kit::testing::random_floats(static_cast<std::size_t>(k) * n, seed ^ 0x5bd1e995ull);
    a = kit::DeviceBuffer<float>(ha);
    b = kit::DeviceBuffer<float>(hb);
    cublas.sgemm(a.get(), b.get(), reference.get(), m, n, k);
    want = reference.download();
    for (float& x : ha) {
      x = std::abs(x);
    }
    for (float& x : hb) {
      x = std::abs(x);
    }
    kit::DeviceBuffer<float> abs_a(ha), abs_b(hb);
    cublas.sgemm(abs_a.get(), abs_b.get(), reference.get(), m, n, k); // (|A| |B|)(i, j)
    const std::vector<float> abs_sum = reference.download();
    tolerance.resize(abs_sum.size());
    for (std::size_t e = 0; e < abs_sum.size(); ++e) {
      // abs_sum is itself a float sum: allow for its rounding before doubling.
      const double s = abs_sum[e] * (1.0 + gemm_tolerance(k, 1.0));
      tolerance[e] = 2.0 * gemm_tolerance(k, s);
    }
  }

  /// Runs `v` into c and expects cuBLAS's C within the tolerance.
  ::testing::AssertionResult check(const Variant& v) {
    c.fill_bytes(0xff);
    v.run(a.get(), b.get(), c.get(), m, n, k, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = c.download();
    for (std::size_t e = 0; e < got.size(); ++e) {
      if (!(std::abs(static_cast<double>(got[e]) - want[e]) <= tolerance[e])) {
        return ::testing::AssertionFailure()
               << v.name << " at " << m << " x " << n << " x " << k << ": C(" << e / n << ", "
               << e % n << ") = " << got[e] << ", cuBLAS " << want[e] << ", allowed difference "
               << tolerance[e];
      }
    }
    return ::testing::AssertionSuccess();
  }
};

} // namespace lesson09::testing
