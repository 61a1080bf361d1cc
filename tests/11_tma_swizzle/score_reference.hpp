// score_tiles against the CPU on fresh random data (GPU tests only).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace lesson11::testing {

/// Runs score_tiles in configuration `c` on random matrices of a few shapes and expects the
/// CPU's scores (double sums; tolerance from the sum of magnitudes).
inline void expect_scores_match(Config c) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<std::pair<int, int>> shapes = {{1, 4}, {33, 36}, {64, 128}};
  if (!kit::small_mode()) {
    shapes.push_back({1000, 776});
  }
  for (const auto& [n_rows, n_cols] : shapes) {
    const std::vector<float> m =
        kit::testing::random_floats(static_cast<std::size_t>(n_rows) * n_cols, seed + n_rows);
    const std::vector<float> q =
        kit::testing::random_floats(static_cast<std::size_t>(kQueries) * n_cols, seed ^ n_cols);
    kit::DeviceBuffer<float> d_m(m), d_q(q), d_s(static_cast<std::size_t>(kQueries) * n_rows);
    d_s.fill_bytes(0xff); // NaN: a score never written cannot pass
    score_tiles(c, d_m.get(), d_q.get(), d_s.get(), n_rows, n_cols);
    const auto failure = take_wait_failure();
    ASSERT_FALSE(failure) << config_name(c) << ": a tile wait gave up";
    const std::vector<float> s = d_s.download();
    for (int j = 0; j < kQueries; ++j) {
      for (int r = 0; r < n_rows; ++r) {
        double want = 0, magnitude = 0;
        for (int col = 0; col < n_cols; ++col) {
          const double p = static_cast<double>(m[static_cast<std::size_t>(r) * n_cols + col]) *
                           q[static_cast<std::size_t>(j) * n_cols + col];
          want += p;
          magnitude += std::fabs(p);
        }
        ASSERT_NEAR(s[static_cast<std::size_t>(j) * n_rows + r], want, 1e-5 * magnitude + 1e-6)
            << config_name(c) << ", " << n_rows << " x " << n_cols << ": query " << j << ", row "
            << r;
      }
    }
  }
}

} // namespace lesson11::testing
