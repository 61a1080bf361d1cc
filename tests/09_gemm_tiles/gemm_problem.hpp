// A large random GEMM on the device, cuBLAS's answer to it and the tolerance of every element
// (GPU tests only): for comparisons at sizes a CPU reference cannot reach. The inputs are drawn,
// and each answer is held to its tolerance, on the device (device_problem.hpp): only the first
// element outside it, if any, comes back to the host.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

#include "cublas_sgemm.hpp"
#include "device_problem.hpp"
#include "gemm_run.hpp"
#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"

namespace lesson09::testing {

/// Random A (m x k) and B (k x n) in [-1, 1), cuBLAS's C, and cuBLAS's (|A| |B|)(i, j), from
/// which each element's tolerance follows: beside_cublas_tolerance(k, (|A| |B|)(i, j)).
struct Problem {
  int m, n, k;
  kit::DeviceBuffer<float> a, b, c;
  kit::DeviceBuffer<float> want;    ///< cuBLAS's C.
  kit::DeviceBuffer<float> abs_sum; ///< cuBLAS's |A| |B|.

  Problem(Cublas& cublas, int m_, int n_, int k_, std::uint64_t seed)
      : m(m_), n(n_), k(k_), a(static_cast<std::size_t>(m_) * k_),
        b(static_cast<std::size_t>(k_) * n_), c(static_cast<std::size_t>(m_) * n_), want(c.size()),
        abs_sum(c.size()) {
    random_floats_on_device(a.get(), a.size(), seed);
    random_floats_on_device(b.get(), b.size(), seed ^ 0x5bd1e995ull);
    cublas.sgemm(a.get(), b.get(), want.get(), m, n, k);
    kit::DeviceBuffer<float> abs_a(a.size()), abs_b(b.size());
    absolute_values_on_device(a.get(), abs_a.get(), a.size());
    absolute_values_on_device(b.get(), abs_b.get(), b.size());
    cublas.sgemm(abs_a.get(), abs_b.get(), abs_sum.get(), m, n, k);
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  /// Runs `v` into c and expects cuBLAS's C within the tolerance.
  ::testing::AssertionResult check(const Variant& v) {
    c.fill_bytes(0xff);
    v.run(a.get(), b.get(), c.get(), m, n, k, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::size_t e = first_outside_tolerance(c.get(), want.get(), abs_sum.get(), c.size(), k);
    if (e == c.size()) {
      return ::testing::AssertionSuccess();
    }
    const float got = element(c, e), cublas_c = element(want, e);
    return ::testing::AssertionFailure()
           << v.name << " at " << m << " x " << n << " x " << k << ": C(" << e / n << ", " << e % n
           << ") = " << got << ", cuBLAS " << cublas_c << ", allowed difference "
           << beside_cublas_tolerance(k, element(abs_sum, e));
  }

private:
  static float element(const kit::DeviceBuffer<float>& buffer, std::size_t e) {
    float x = 0;
    CUDA_CHECK(cudaMemcpy(&x, buffer.get() + e, sizeof x, cudaMemcpyDeviceToHost));
    return x;
  }
};

} // namespace lesson09::testing
