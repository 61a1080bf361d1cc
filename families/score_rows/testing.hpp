/// @file families/score_rows/testing.hpp
/// @brief GPU tests of the score_rows family: the CPU references (in double with its float
/// error bound, and the kernel's own fmaf chain bit for bit), the shapes and the loop that runs
/// a kernel on fresh random problems into poisoned outputs, and a kernel timed against its
/// twin in one saturating run.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kit/bands.hpp"
#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/device.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"
#include "score_rows/shape.hpp"

namespace families::score_rows::testing {

/// A score_rows launcher as the lessons and their twins declare it (all pointers device
/// arrays).
using RunFn = void (*)(const float* rows, int n_rows, int n_cols, const float* queries,
                       float* scores, cudaStream_t stream);

/// A kernel of the family as the tests time it: its name in messages and tables, its
/// __global__ function (for the timer's occupancy check) and its launcher.
struct Kernel {
  std::string name;   ///< "score_rows", "score_rows_twin", ...
  const void* global; ///< The __global__ function.
  RunFn run;          ///< The launcher.
};

/// Shapes of the correctness tests: none a multiple of every kind's tile (rows 32 or 64,
/// columns 32); for_each_random_problem adds 4099 x 300 (drops 1000 x 777 in small mode).
inline const std::vector<std::pair<int, int>> kShapes = {{1, 1},   {1, 33},  {31, 33},   {31, 35},
                                                         {33, 31}, {32, 32}, {64, 32},   {64, 96},
                                                         {65, 96}, {100, 1}, {1000, 777}};

/// One score of the reference, in double, and the error a float kernel may make on it.
struct ExpectedScore {
  double value = 0; ///< The score.
  double tol = 0;   ///< Allowed absolute error.
};

/// scores[j][r] = sum over c of rows[r][c] * queries[j][c], in double, for `n_queries`
/// queries of `n_cols` floats each.
inline std::vector<ExpectedScore> reference(const std::vector<float>& rows, int n_rows, int n_cols,
                                            const std::vector<float>& queries, int n_queries) {
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

/// The kernel's own arithmetic for a kind that reads one float a step: scores[j][r] =
/// fmaf(rows[r][c], queries[j][c], ...) over c = 0 ... n_cols - 1, in float, then the zero
/// columns of the last tile (which add +0 and leave every score as it is). Any difference
/// from it is a value read from the wrong place.
inline std::vector<float> fmaf_chain(const std::vector<float>& rows, int n_rows, int n_cols,
                                     const std::vector<float>& queries, int n_queries) {
  std::vector<float> s(static_cast<std::size_t>(n_queries) * n_rows);
  const int padded_cols = (n_cols + kTileDim - 1) / kTileDim * kTileDim;
  for (int j = 0; j < n_queries; ++j) {
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

/// Runs `run` on fresh random data for every (n_rows, n_cols) of kShapes (the last one
/// dropped in small mode, 4099 x 300 added otherwise), into scores poisoned with NaN, and
/// hands each problem to `check(rows, n_rows, n_cols, queries, got)` (host vectors; got is
/// [n_queries][n_rows]). Stops at the first shape whose check fails.
template <class Check>
void for_each_random_problem(int n_queries, RunFn run, const Check& check) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<std::pair<int, int>> shapes = kShapes;
  if (kit::small_mode()) {
    shapes.pop_back();
  } else {
    shapes.push_back({4099, 300});
  }
  for (const auto& [n_rows, n_cols] : shapes) {
    const std::vector<float> rows = kit::testing::random_floats(
        static_cast<std::size_t>(n_rows) * n_cols, seed + static_cast<std::uint64_t>(n_rows));
    const std::vector<float> queries = kit::testing::random_floats(
        static_cast<std::size_t>(n_queries) * n_cols, seed ^ static_cast<std::uint64_t>(n_cols));
    kit::DeviceBuffer<float> d_rows(rows), d_queries(queries);
    kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(n_queries) * n_rows);
    d_scores.fill_bytes(0xff); // NaN poison: a score never written cannot pass
    run(d_rows.get(), n_rows, n_cols, d_queries.get(), d_scores.get(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = d_scores.download();
    check(rows, n_rows, n_cols, queries, got);
    if (::testing::Test::HasFatalFailure()) {
      return;
    }
  }
}

/// for_each_random_problem, each score within the float error bound of reference(); a failure
/// names `name`, the shape, the query and the row.
inline void expect_near_reference(const std::string& name, int n_queries, RunFn run) {
  for_each_random_problem(n_queries, run,
                          [&](const std::vector<float>& rows, int n_rows, int n_cols,
                              const std::vector<float>& queries, const std::vector<float>& got) {
                            const std::vector<ExpectedScore> want =
                                reference(rows, n_rows, n_cols, queries, n_queries);
                            for (std::size_t i = 0; i < got.size(); ++i) {
                              ASSERT_NEAR(got[i], want[i].value, want[i].tol)
                                  << name << ": " << n_rows << " x " << n_cols << ", query "
                                  << i / n_rows << ", row " << i % n_rows;
                            }
                          });
}

/// for_each_random_problem, each score equal to fmaf_chain() bit for bit; a failure names
/// `name`, the shape, the query and the row.
inline void expect_fmaf_chain(const std::string& name, int n_queries, RunFn run) {
  for_each_random_problem(n_queries, run,
                          [&](const std::vector<float>& rows, int n_rows, int n_cols,
                              const std::vector<float>& queries, const std::vector<float>& got) {
                            const std::vector<float> want =
                                fmaf_chain(rows, n_rows, n_cols, queries, n_queries);
                            for (std::size_t i = 0; i < got.size(); ++i) {
                              ASSERT_EQ(0, std::memcmp(&got[i], &want[i], sizeof(float)))
                                  << name << ": " << n_rows << " x " << n_cols << ", query "
                                  << i / n_rows << ", row " << i % n_rows << ": got " << got[i]
                                  << ", the CPU's fmaf chain gives " << want[i];
                            }
                          });
}

/// Expects `run` to launch nothing and touch no memory for an empty problem: no error, even
/// with null pointers.
inline void expect_empty_launches_nothing(RunFn run) {
  run(nullptr, 0, 0, nullptr, nullptr, nullptr);
  run(nullptr, 0, 17, nullptr, nullptr, nullptr);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

/// Expects `run` to score every row 0 when there are no columns.
inline void expect_no_columns_score_zero(int n_queries, RunFn run) {
  constexpr int kRows = 45;
  kit::DeviceBuffer<float> d_scores(static_cast<std::size_t>(n_queries) * kRows);
  d_scores.fill_bytes(0xff);
  run(nullptr, kRows, 0, nullptr, d_scores.get(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  for (float s : d_scores.download()) {
    ASSERT_EQ(s, 0.0f) << "a row with no columns scores 0";
  }
}

/// Zeroed device data for timing a score_rows kernel against its twin: `n_rows` x `n_cols`
/// rows, `n_queries` queries of n_cols floats, and n_queries x n_rows scores.
struct Problem {
  int n_rows;                       ///< Rows scored.
  int n_cols;                       ///< Floats per row and per query.
  kit::DeviceBuffer<float> rows;    ///< [n_rows][n_cols], zeros.
  kit::DeviceBuffer<float> queries; ///< [n_queries][n_cols], zeros.
  kit::DeviceBuffer<float> scores;  ///< [n_queries][n_rows].

  /// Allocates the three buffers and zeroes the rows and the queries.
  Problem(int n_rows_, int n_cols_, int n_queries)
      : n_rows(n_rows_), n_cols(n_cols_), rows(static_cast<std::size_t>(n_rows_) * n_cols_),
        queries(static_cast<std::size_t>(n_queries) * n_cols_),
        scores(static_cast<std::size_t>(n_queries) * n_rows_) {
    rows.fill_bytes(0);
    queries.fill_bytes(0);
  }

  /// The kit::Launch of `k` (`block_threads` threads, no dynamic shared memory) on this data.
  kit::Launch launch(const Kernel& k, int block_threads) {
    return {k.name, k.global, block_threads, 0, [this, run = k.run](cudaStream_t s) {
              run(rows.get(), n_rows, n_cols, queries.get(), scores.get(), s);
            }};
  }
};

/// A kernel of kind `S` and its twin on 8 full waves of blocks of this GPU (the twin's
/// occupancy), 8 column tiles each, ready for the timer: same block, same static shared
/// memory (kSharedFloats floats), so the timer's occupancy check holds.
template <class S>
struct Race {
  static constexpr int kWaves = 8;                      ///< Full waves of blocks.
  static constexpr int kColumnTiles = 8;                ///< Column tiles per block.
  static constexpr int kCols = kColumnTiles * kTileDim; ///< Columns of the problem.
  Kernel kernel;                                        ///< The kernel timed.
  Kernel twin;                                          ///< Its baseline.
  Problem p{kit::saturating_blocks(twin.global, S::kBlockThreads, 0) * S::kTileRows * kWaves, kCols,
            S::kQueries};

  /// The launches, kernel first.
  kit::Launch a() { return p.launch(kernel, S::kBlockThreads); }
  /// See a().
  kit::Launch b() { return p.launch(twin, S::kBlockThreads); }
};

/// The shared-memory instructions of one tile of a kernel of kind `S` and of its twin
/// (traces `Traces`), each replayed alone in a saturating launch (kit::TraceReplay): what the
/// two layouts cost on this GPU, without the index arithmetic, the global loads and the
/// synchronisation around them. Every instruction repeats once per block and column tile, so
/// one tile gives the ratio of any shape.
template <class S, class Traces>
struct TileReplays {
  kit::TraceReplay a;   ///< The kernel's.
  kit::TraceReplay b;   ///< The twin's.
  kit::ReplayPair pair; ///< Both, ready for the timer.

  TileReplays(const std::string& kernel, const std::string& twin)
      : a(kernel + "'s shared accesses", Traces::exercise(S::kTileRows, kTileDim)),
        b(twin + "'s shared accesses", Traces::twin(S::kTileRows, kTileDim)),
        pair(kit::saturating_replays(a, b)) {}

  /// The model's ratio of the two tiles.
  static double model_ratio() { return Traces::model_ratio(S::kTileRows, kTileDim); }
};

/// Says, after a kernel's time missed its bar, what its shared-memory accesses alone showed:
/// the one sentence a student reads when the replay decides.
inline void note_replay(const std::string& kernel, const std::string& twin, bool replay_passed) {
  std::printf("[kit-note] %s over %s: %s\n", kernel.c_str(), twin.c_str(),
              replay_passed
                  ? "the kernel's time misses the bar, but its shared-memory accesses alone, "
                    "replayed against the twin's, meet it: other work (index arithmetic, "
                    "latency) sets the kernel's time, not the banks"
                  : "the kernel's time misses the bar, and so do its shared-memory accesses "
                    "alone, replayed against the twin's: the layout costs wavefronts");
  std::fflush(stdout);
}

/// Times `kernel` against `twin` (kind `S`) in one saturating run and expects the ratio in the
/// band around the model's ratio of their traces (`Traces::model_ratio` of the problem timed).
/// Where the kernels' times miss the band, their shared-memory accesses decide: one tile of
/// each trace replayed alone (kit::TraceReplay), against the model's ratio of the two tiles. So
/// a layout whose accesses cost what the model says passes even when its index arithmetic sets
/// the kernel's time, and one that costs more wavefronts fails either way.
template <class S, class Traces>
void expect_slowdown(Kernel kernel, Kernel twin) {
  Race<S> race{std::move(kernel), std::move(twin)};
  const kit::SlowdownVerdict v =
      kit::judge_slowdown(race.a(), race.b(), Traces::model_ratio(race.p.n_rows, race.p.n_cols));
  kit::testing::report(v);
  if (v.kind != kit::Verdict::fail) {
    KIT_EXPECT_VERDICT(v, "");
    return;
  }
  TileReplays<S, Traces> tiles(race.kernel.name, race.twin.name);
  const kit::SlowdownVerdict shared =
      kit::judge_slowdown(tiles.pair.a, tiles.pair.b, tiles.model_ratio());
  kit::testing::report(shared);
  note_replay(race.kernel.name, race.twin.name, shared.kind == kit::Verdict::pass);
  KIT_EXPECT_VERDICT(shared, "\nThe kernels themselves: " + v.message);
}

/// Times `kernel` against `twin` (kind `S`) and expects it no slower: its time over the
/// twin's at most kit::kUnitBandHigh, the kit's band for "no slowdown" (`what` names that
/// speed ratio in the verdict). Prints the measurement as a [kit-slowdown] line beside the
/// model's ratio of the problem timed (`Traces::model_ratio`), which a kernel whose pipe no
/// longer sets its time does not reach. Where the kernel is slower, its shared-memory accesses
/// decide, as in expect_slowdown: one tile of each trace replayed alone must be no slower.
template <class S, class Traces>
void expect_no_slower(Kernel kernel, Kernel twin, const std::string& what) {
  Race<S> race{std::move(kernel), std::move(twin)};
  const auto no_slower = [&](const kit::Launch& a, const kit::Launch& b, double model,
                             const std::string& a_name, const std::string& b_name) {
    const kit::AtLeastVerdict at = kit::judge_at_least(
        a, b, [](const kit::Slowdown& s) { return 1.0 / s.ratio; }, 1.0 / kit::kUnitBandHigh, what);
    kit::SlowdownVerdict v;
    v.kind = at.kind;
    v.model_ratio = model;
    v.last = at.measured;
    v.attempts = at.attempts;
    v.message = "'" + a_name + "' over '" + b_name + "': " + at.message;
    kit::testing::report(v);
    return at;
  };
  const kit::AtLeastVerdict at =
      no_slower(race.a(), race.b(), Traces::model_ratio(race.p.n_rows, race.p.n_cols),
                race.kernel.name, race.twin.name);
  if (at.kind != kit::Verdict::fail) {
    KIT_EXPECT_VERDICT(at, "");
    return;
  }
  TileReplays<S, Traces> tiles(race.kernel.name, race.twin.name);
  const kit::AtLeastVerdict shared =
      no_slower(tiles.pair.a, tiles.pair.b, tiles.model_ratio(), tiles.a.name(), tiles.b.name());
  note_replay(race.kernel.name, race.twin.name, shared.kind == kit::Verdict::pass);
  KIT_EXPECT_VERDICT(shared, "\nThe kernels themselves: " + at.message);
}

} // namespace families::score_rows::testing
