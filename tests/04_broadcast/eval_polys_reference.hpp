// The CPU reference lesson04::eval_polys is held to.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include <demo.hpp>

namespace lesson04::testing {

/// One value of the reference, in double, and the error a float kernel may make on it.
struct Expected {
  double value = 0; ///< p(x).
  double tol = 0;   ///< Allowed absolute error.
};

/// out[p][i] = sum over k of coefs[p][k] * points[i]^k, by Horner's rule in double.
inline std::vector<Expected> reference(const std::vector<float>& coefs, int n_polys,
                                       const std::vector<float>& points) {
  const int n_points = static_cast<int>(points.size());
  std::vector<Expected> out(static_cast<std::size_t>(n_polys) * n_points);
  // kCoefs float roundings in Horner's rule, each bounded by the polynomial with |coefs| at |x|.
  constexpr double kUlps = 2.0 * kCoefs * std::numeric_limits<float>::epsilon();
  for (int p = 0; p < n_polys; ++p) {
    const float* c = &coefs[static_cast<std::size_t>(p) * kCoefs];
    for (int i = 0; i < n_points; ++i) {
      const double x = points[i];
      double y = c[kCoefs - 1], size = std::abs(c[kCoefs - 1]);
      for (int k = kCoefs - 2; k >= 0; --k) {
        y = y * x + c[k];
        size = size * std::abs(x) + std::abs(c[k]);
      }
      out[static_cast<std::size_t>(p) * n_points + i] = {y, kUlps * size +
                                                                std::numeric_limits<float>::min()};
    }
  }
  return out;
}

} // namespace lesson04::testing
