// Random problems for lesson02::correlate and the CPU reference it is held to.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace lesson02::testing {

/// `n` random complex numbers with parts in [-1, 1).
inline std::vector<float2> random_complex(int n, std::uint64_t seed) {
  const std::vector<float> parts =
      kit::testing::random_floats(2 * static_cast<std::size_t>(n), seed);
  std::vector<float2> v(n);
  for (int i = 0; i < n; ++i) {
    v[i] = float2{parts[2 * i], parts[2 * i + 1]};
  }
  return v;
}

/// Random taps with parts in [-1, 1).
inline Taps random_taps(std::uint64_t seed) {
  const std::vector<float> parts = kit::testing::random_floats(2 * kTaps, seed);
  Taps h{};
  for (int k = 0; k < kTaps; ++k) {
    h.re[k] = parts[k];
    h.im[k] = parts[kTaps + k];
  }
  return h;
}

/// One output of the reference, in double, and the error a float kernel may make on it.
struct Expected {
  double re = 0;  ///< Real part.
  double im = 0;  ///< Imaginary part.
  double tol = 0; ///< Allowed absolute error of each part.
};

/// y[i] = sum over k of h[k] * x[i + k], x[j] = 0 for j >= n; computed in double.
inline std::vector<Expected> reference(const std::vector<float2>& x, const Taps& h) {
  const int n = static_cast<int>(x.size());
  std::vector<Expected> y(n);
  // 4 kTaps float roundings, each at most half an ulp of a partial sum bounded by `size`.
  constexpr double kUlps = 4.0 * kTaps * std::numeric_limits<float>::epsilon();
  for (int i = 0; i < n; ++i) {
    double re = 0, im = 0, size = 0;
    for (int k = 0; k < kTaps && i + k < n; ++k) {
      const double xr = x[i + k].x, xi = x[i + k].y;
      re += h.re[k] * xr - h.im[k] * xi;
      im += h.re[k] * xi + h.im[k] * xr;
      size += std::abs(h.re[k]) * (std::abs(xr) + std::abs(xi)) +
              std::abs(h.im[k]) * (std::abs(xr) + std::abs(xi));
    }
    y[i] = {re, im, kUlps * size + std::numeric_limits<float>::min()};
  }
  return y;
}

} // namespace lesson02::testing
