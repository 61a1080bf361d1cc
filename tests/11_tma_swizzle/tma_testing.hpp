// GPU-side helpers of lesson 11's tests: the skip for GPUs and builds without the TMA, a
// matrix whose values name their own place, and the check of a copy that names the first
// wrong element and the 16-byte chunk it came from.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

/// Skips, with the reason, where TMA kernels cannot run (no GPU, older than sm_90, a build
/// without sm_90 code, a driver without cuTensorMapEncodeTiled).
#define LESSON11_REQUIRE_TMA()                                                                     \
  do {                                                                                             \
    KIT_REQUIRE_GPU();                                                                             \
    if (const auto why = ::lesson11::tma_unavailable()) {                                          \
      GTEST_SKIP() << *why;                                                                        \
    }                                                                                              \
  } while (false)

namespace lesson11::testing {

/// An n_rows x n_cols matrix whose element (r, c) holds r * n_cols + c + 1 (exact in a float
/// below 2^24; 0 is what the TMA fills in past the matrix's edge).
inline std::vector<float> numbered_matrix(int n_rows, int n_cols) {
  std::vector<float> m(static_cast<std::size_t>(n_rows) * n_cols);
  for (std::size_t i = 0; i < m.size(); ++i) {
    m[i] = static_cast<float>(i + 1);
  }
  return m;
}

/// Where a value of numbered_matrix() came from, in words: "element (r, c), chunk k of row r
/// of its tile".
inline std::string origin(float v, int n_cols, int box_cols) {
  std::ostringstream m;
  const auto i = static_cast<long>(v) - 1;
  if (v == 0.0f) {
    m << "0, which no element of the matrix holds (the TMA's fill past the matrix's edge, or "
         "a part of the tile nothing was copied to)";
  } else if (v < 0.0f || static_cast<float>(i + 1) != v) {
    m << v << ", which no element of the matrix holds";
  } else {
    const long r = i / n_cols, c = i % n_cols;
    m << "the value of element (" << r << ", " << c << "): chunk " << c % box_cols / kChunkFloats
      << " of row " << r % kBoxRows << " of its tile";
  }
  return m.str();
}

/// Copies a numbered n_rows x n_cols matrix with copy_tiles in configuration `c` and expects
/// every element back in its place; on the first wrong one, says where its value came from.
inline void expect_exact_copy(Config c, int n_rows, int n_cols, int box_cols) {
  const std::vector<float> in = numbered_matrix(n_rows, n_cols);
  kit::DeviceBuffer<float> d_in(in), d_out(in.size());
  d_out.fill_bytes(0xff); // NaN: an element never written cannot pass
  copy_tiles(c, d_in.get(), d_out.get(), n_rows, n_cols);
  const auto failure = take_wait_failure();
  ASSERT_FALSE(failure) << config_name(c) << ": the wait for tile (" << failure->tile_row << ", "
                        << failure->tile_col << ") gave up";
  const std::vector<float> out = d_out.download();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] != in[i]) {
      const int r = static_cast<int>(i / n_cols), col = static_cast<int>(i % n_cols);
      FAIL() << config_name(c) << ", " << n_rows << " x " << n_cols << " matrix: element (" << r
             << ", " << col << ") — chunk " << col % box_cols / kChunkFloats << " of row "
             << r % kBoxRows << " of its tile — came back as " << origin(out[i], n_cols, box_cols)
             << ". The read layout sends that read to where the TMA put another chunk: compare "
                "it with the mode's permutation (README).";
    }
  }
}

} // namespace lesson11::testing
