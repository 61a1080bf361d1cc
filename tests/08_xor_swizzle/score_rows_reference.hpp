// The CPU reference that lesson08::score_rows is held to, bit for bit: the kernel's own
// arithmetic (one fmaf per column, in column order, zeros past the matrix's last column), so
// any difference is a value read from the wrong place.
#pragma once

#include <cmath>
#include <vector>

#include <demo.hpp>

namespace lesson08::testing {

/// scores[j][r] = fmaf(rows[r][c], queries[j][c], ...) over c = 0 ... n_cols - 1, in float,
/// then the zero columns of the last tile (which add +0 and leave every score as it is).
inline std::vector<float> reference(const std::vector<float>& rows, int n_rows, int n_cols,
                                    const std::vector<float>& queries) {
  std::vector<float> s(static_cast<std::size_t>(kQueries) * n_rows);
  const int padded_cols = (n_cols + kTileDim - 1) / kTileDim * kTileDim;
  for (int j = 0; j < kQueries; ++j) {
    for (int r = 0; r < n_rows; ++r) {
      float v = 0.0f;
      for (int c = 0; c < padded_cols; ++c) {
        const float t = c < n_cols ? rows[static_cast<std::size_t>(r) * n_cols + c] : 0.0f;
        const float f = c < n_cols ? queries[static_cast<std::size_t>(j) * n_cols + c] : 0.0f;
        v = std::fmaf(t, f, v);
      }
      s[static_cast<std::size_t>(j) * n_rows + r] = v;
    }
  }
  return s;
}

} // namespace lesson08::testing
