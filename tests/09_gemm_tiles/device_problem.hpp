// What a GEMM at sizes a CPU reference cannot reach needs on the device, where its data is:
// random inputs, their absolute values, and each element of an answer held to its tolerance
// (device_problem.cu; gemm_problem.hpp puts them together). The tolerance itself serves the
// CPU reference too (gemm_run.hpp).
#pragma once

#include <cfloat>
#include <cstddef>
#include <cstdint>

#include "kit/config.hpp"

namespace lesson09::testing {

/// The error a float GEMM may make on an element whose terms sum, in absolute value, to
/// `abs_sum`: one rounding per term, each at most half an ulp of a partial sum bounded by
/// abs_sum, (k + 1) eps abs_sum in all, plus the smallest normal float.
KIT_HD inline double gemm_tolerance(int k, double abs_sum) {
  return (k + 1) * static_cast<double>(FLT_EPSILON) * abs_sum + static_cast<double>(FLT_MIN);
}

/// The difference allowed between a kernel's element and cuBLAS's, where cuBLAS's float
/// (|A| |B|)(i, j) is `abs_sum`: that sum is rounded too, which is allowed for before the
/// tolerance is doubled (both answers round).
KIT_HD inline double beside_cublas_tolerance(int k, float abs_sum) {
  const double s = abs_sum * (1.0 + gemm_tolerance(k, 1.0));
  return 2.0 * gemm_tolerance(k, s);
}

/// Fills out[0, n) with floats in [-1, 1) drawn from `seed` (the same seed, the same floats:
/// a printed seed replays a failure).
void random_floats_on_device(float* out, std::size_t n, std::uint64_t seed);

/// out[e] = |in[e]| for e in [0, n).
void absolute_values_on_device(const float* in, float* out, std::size_t n);

/// The first e in [0, n) where got[e] is not within beside_cublas_tolerance(k, abs_sum[e]) of
/// want[e] (a NaN never is), or n where there is none. Waits for the stream's work before.
std::size_t first_outside_tolerance(const float* got, const float* want, const float* abs_sum,
                                    std::size_t n, int k);

} // namespace lesson09::testing
