/// @file testing_score_rows.hpp
/// @brief GPU tests of the score_rows kernels (scores[j][r] = rows[r] . queries[j]): the CPU
/// reference in double with its float error bound, the loop that runs a kernel on fresh
/// random problems of several shapes into poisoned outputs, and the zeroed data a kernel is
/// timed on against its twin.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"

namespace kit::testing {

/// One score of the reference, in double, and the error a float kernel may make on it.
struct ExpectedScore {
  double value = 0; ///< The score.
  double tol = 0;   ///< Allowed absolute error.
};

/// scores[j][r] = sum over c of rows[r][c] * queries[j][c], in double, for `n_queries`
/// queries of `n_cols` floats each.
inline std::vector<ExpectedScore> score_rows_reference(const std::vector<float>& rows, int n_rows,
                                                       int n_cols,
                                                       const std::vector<float>& queries,
                                                       int n_queries) {
  std::vector<ExpectedScore> s(static_cast<std::size_t>(n_queries) * n_rows);
  // One float rounding per term, each at most half an ulp of a partial sum bounded by `size`.
  const double ulps = (n_cols + 1) * static_cast<double>(std::numeric_limits<float>::epsilon());
  for (int j = 0; j < n_queries; ++j) {
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

/// Runs `score_rows(rows, n_rows, n_cols, queries, scores)` (device pointers) on fresh random
/// data for every (n_rows, n_cols) in `shapes` (the last one dropped in small mode, 4099 x 300
/// added otherwise), into scores poisoned with NaN, and hands each problem to
/// `check(rows, n_rows, n_cols, queries, got)` (host vectors; got is [n_queries][n_rows]).
/// Stops at the first shape whose check fails.
template <class ScoreRows, class Check>
void for_each_random_problem(std::vector<std::pair<int, int>> shapes, int n_queries,
                             const ScoreRows& score_rows, const Check& check) {
  const std::uint64_t seed = fresh_seed();
  if (kit::small_mode()) {
    shapes.pop_back();
  } else {
    shapes.push_back({4099, 300});
  }
  for (const auto& [n_rows, n_cols] : shapes) {
    const std::vector<float> rows = random_floats(static_cast<std::size_t>(n_rows) * n_cols,
                                                  seed + static_cast<std::uint64_t>(n_rows));
    const std::vector<float> queries = random_floats(static_cast<std::size_t>(n_queries) * n_cols,
                                                     seed ^ static_cast<std::uint64_t>(n_cols));
    kit::DeviceBuffer<float> d_rows(rows), d_queries(queries);
    kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(n_queries) * n_rows);
    d_scores.fill_bytes(0xff); // NaN poison: a score never written cannot pass
    score_rows(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get());
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = d_scores.download();
    check(rows, n_rows, n_cols, queries, got);
    if (::testing::Test::HasFatalFailure()) {
      return;
    }
  }
}

/// for_each_random_problem, each score within the float error bound of
/// score_rows_reference; a failure names `name`, the shape, the query and the row.
template <class ScoreRows>
void expect_scores_near_reference(const std::string& name, std::vector<std::pair<int, int>> shapes,
                                  int n_queries, const ScoreRows& score_rows) {
  for_each_random_problem(std::move(shapes), n_queries, score_rows,
                          [&](const std::vector<float>& rows, int n_rows, int n_cols,
                              const std::vector<float>& queries, const std::vector<float>& got) {
                            const std::vector<ExpectedScore> want =
                                score_rows_reference(rows, n_rows, n_cols, queries, n_queries);
                            for (std::size_t i = 0; i < got.size(); ++i) {
                              ASSERT_NEAR(got[i], want[i].value, want[i].tol)
                                  << name << ": " << n_rows << " x " << n_cols << ", query "
                                  << i / n_rows << ", row " << i % n_rows;
                            }
                          });
}

/// Zeroed device data for timing a score_rows kernel against its twin: `n_rows` x `n_cols`
/// rows, `n_queries` queries of n_cols floats, and n_queries x n_rows scores.
struct ScoreRowsProblem {
  int n_rows;                       ///< Rows scored.
  int n_cols;                       ///< Floats per row and per query.
  kit::DeviceBuffer<float> rows;    ///< [n_rows][n_cols], zeros.
  kit::DeviceBuffer<float> queries; ///< [n_queries][n_cols], zeros.
  kit::DeviceBuffer<float> scores;  ///< [n_queries][n_rows].

  /// Allocates the three buffers and zeroes the rows and the queries.
  ScoreRowsProblem(int n_rows_, int n_cols_, int n_queries)
      : n_rows(n_rows_), n_cols(n_cols_), rows(static_cast<std::size_t>(n_rows_) * n_cols_),
        queries(static_cast<std::size_t>(n_queries) * n_cols_),
        scores(static_cast<std::size_t>(n_queries) * n_rows_) {
    rows.fill_bytes(0);
    queries.fill_bytes(0);
  }

  /// The kit::Launch `name` of `kernel` (`block_threads` threads, no dynamic shared memory)
  /// that runs `score_rows(rows, n_rows, n_cols, queries, scores, stream)` on this data.
  template <class ScoreRows>
  kit::Launch launch(std::string name, const void* kernel, int block_threads,
                     ScoreRows score_rows) {
    return {std::move(name), kernel, block_threads, 0, [this, score_rows](cudaStream_t s) {
              score_rows(rows.get(), n_rows, n_cols, queries.get(), scores.get(), s);
            }};
  }
};

} // namespace kit::testing
