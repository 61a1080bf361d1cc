// Random problems for lesson07::score_rows4 and the CPU reference it is held to.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include <demo.hpp>

namespace lesson07::testing {

/// One score of the reference, in double, and the error a float kernel may make on it.
struct Expected {
  double value = 0; ///< The score.
  double tol = 0;   ///< Allowed absolute error.
};

/// scores[j][r] = sum over c of rows[r][c] * queries[j][c], in double.
inline std::vector<Expected> reference(const std::vector<float>& rows, int n_rows, int n_cols,
                                       const std::vector<float>& queries) {
  std::vector<Expected> s(static_cast<std::size_t>(kQueries) * n_rows);
  // One float rounding per term, each at most half an ulp of a partial sum bounded by `size`.
  const double ulps = (n_cols + 1) * static_cast<double>(std::numeric_limits<float>::epsilon());
  for (int j = 0; j < kQueries; ++j) {
    for (int r = 0; r < n_rows; ++r) {
      double v = 0, size = 0;
      for (int c = 0; c < n_cols; ++c) {
        const double term = static_cast<double>(rows[static_cast<std::size_t>(r) * n_cols + c]) *
                            queries[static_cast<std::size_t>(j) * n_cols + c];
        v += term;
        size += std::abs(term);
      }
      s[static_cast<std::size_t>(j) * n_rows + r] = {v, ulps * size +
                                                            std::numeric_limits<float>::min()};
    }
  }
  return s;
}

} // namespace lesson07::testing
