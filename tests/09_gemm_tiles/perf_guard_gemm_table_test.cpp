// The lesson's table: every kernel of the family beside cuBLAS SGEMM in one run, at 4096^3
// and at a ragged size: its answer against cuBLAS's (asserted), the wavefronts of its fragment
// reads (the model's, and the counters' in the pattern microbenchmark), its GFLOP/s and its
// share of cuBLAS's; and the gains of the strided twins over the blocked kernels, the
// median of 10 runs. With LESSON09_MEASUREMENTS_OUT=<folder> it writes gemm_tiles.csv and
// gemm_gain.csv there (docs/measurements/ on the reference GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <demo.hpp>

#include "cublas_sgemm.hpp"
#include "gemm_problem.hpp"
#include "gemm_run.hpp"
#include "gemm_trace.hpp"
#include "kit/counters.hpp"
#include "kit/device.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

using namespace lesson09;
using namespace lesson09::testing;

/// The fragment reads of a variant: one B instruction and one A instruction (warp 0, k = 0).
struct Reads {
  kit::Pattern b, a;
};

std::vector<Reads> fragment_reads() {
  return {{b_scalar_read_demo<Blocked>("blocked"), a_column_read_demo()},
          {b_scalar_read_demo<Strided>("strided"), a_column_read_demo()},
          {b_scalar_read_demo<FragmentColumns>("FragmentColumns"), a_column_read_demo()},
          {b_float4_read_demo<Blocked>("blocked"), a_transposed_read_demo()},
          {b_float4_read_demo<StridedByFour>("strided by four"), a_transposed_read_demo()},
          {b_float4_read_demo<Float4Columns>("Float4Columns"), a_transposed_read_demo()}};
}

/// Load wavefronts per load request the counters read for `p` in the pattern microbenchmark.
std::optional<double> counted(kit::CounterSession& s, const kit::Pattern& p) {
  if (!s.ok()) {
    return std::nullopt;
  }
  kit::PatternBench bench(p);
  const kit::SharedCounters c = s.measure([&] { bench.run(4, 2); });
  return c.sass.load_wavefronts_per_request();
}

using kit::fixed;

/// Writes `rows` under the measurement header into `folder`/`name` when the environment asks.
void write_csv(const char* name, const std::string& columns, const std::vector<std::string>& rows) {
  const auto folder = kit::env("LESSON09_MEASUREMENTS_OUT");
  if (!folder) {
    return;
  }
  const kit::MeasurementTable table{"LESSON09_MEASUREMENTS_OUT=docs/measurements "
                                    "build/gpu-check/tests/solution/lesson09_solution_gpu "
                                    "--gtest_filter=GemmTable.EveryVariantBesideCublas",
                                    {},
                                    {},
                                    columns,
                                    rows};
  const std::string path = *folder + "/" + name;
  ASSERT_TRUE(kit::write_measurement_csv(path, table)) << "could not write " << path;
  std::printf("[gemm-table] wrote %s/%s\n", folder->c_str(), name);
}

TEST(GemmTable, EveryVariantBesideCublas) {
  KIT_REQUIRE_TIMING();
  LESSON09_REQUIRE_CUBLAS();
  const std::vector<Variant> all = variants();
  const std::vector<Reads> reads = fragment_reads();

  // The counters of each fragment read, alone (a session must be closed before timing).
  std::vector<std::optional<double>> b_counted(all.size()), a_counted(all.size());
  {
    kit::CounterSession session;
    if (!session.ok()) {
      std::printf("[gemm-table] counters not read: %s\n", session.refusal().c_str());
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      b_counted[i] = counted(session, reads[i].b);
      a_counted[i] = counted(session, reads[i].a);
    }
  }

  // GFLOP/s at 4096^3 and at a ragged size, each answer checked against cuBLAS's.
  Cublas cublas;
  const std::array<std::array<int, 3>, 2> sizes = {{{4096, 4096, 4096}, {4001, 3999, 4003}}};
  std::vector<std::array<double, 2>> ms(all.size() + 1);
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const auto [m, n, k] = sizes[s];
    Problem p(cublas, m, n, k, kit::testing::fresh_seed());
    for (std::size_t i = 0; i < all.size(); ++i) {
      ASSERT_TRUE(p.check(all[i]));
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      ms[i][s] =
          kit::time_launch(gemm_launch(all[i], p.a.get(), p.b.get(), p.c.get(), m, n, k), {2, 10})
              .median_ms;
    }
    ms[all.size()][s] =
        kit::time_launch(cublas.launch(p.a.get(), p.b.get(), p.c.get(), m, n, k), {2, 10})
            .median_ms;
  }
  std::vector<std::string> rows;
  const auto rate = [&](std::size_t i, std::size_t s) {
    return gflops(sizes[s][0], sizes[s][1], sizes[s][2], ms[i][s]);
  };
  const auto share = [&](std::size_t i, std::size_t s) {
    return ms[i][s] > 0 ? ms[all.size()][s] / ms[i][s] : 0;
  };
  const auto opt = [](const std::optional<double>& v) { return v ? fixed(*v, 2) : std::string(); };
  for (std::size_t i = 0; i <= all.size(); ++i) {
    std::string row = i < all.size() ? all[i].name : "cublasSgemm";
    if (i < all.size()) {
      row += "," + fixed(kit::wavefronts(reads[i].b.access), 2) + "," + opt(b_counted[i]) + "," +
             fixed(kit::wavefronts(reads[i].a.access), 2) + "," + opt(a_counted[i]);
    } else {
      row += ",,,,";
    }
    row += "," + fixed(rate(i, 0), 0) + "," + fixed(share(i, 0), 3) + "," + fixed(rate(i, 1), 0) +
           "," + fixed(share(i, 1), 3);
    std::printf("[gemm-table] %s\n", row.c_str());
    rows.push_back(row);
  }
  write_csv("gemm_tiles.csv",
            "variant,b_read_model,b_read_counters,a_read_model,a_read_counters,gflops_4096,"
            "share_of_cublas_4096,gflops_ragged,share_of_cublas_ragged",
            rows);

  // The gains: time(slower) / time(faster) - 1, 10 runs each, at 4096^3.
  const auto [m, n, k] = sizes[0];
  kit::DeviceBuffer<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n),
      c(static_cast<std::size_t>(m) * n);
  a.fill_bytes(0);
  b.fill_bytes(0);
  std::vector<std::string> gains;
  for (const auto& [slower, faster] : {std::pair{0, 1}, std::pair{3, 4}}) {
    std::vector<double> g;
    for (int run = 0; run < 10; ++run) {
      const kit::Slowdown s = kit::measure_slowdown(
          gemm_launch(all[slower], a.get(), b.get(), c.get(), m, n, k),
          gemm_launch(all[faster], a.get(), b.get(), c.get(), m, n, k), {2, 10});
      g.push_back(s.ratio - 1.0);
    }
    std::sort(g.begin(), g.end());
    const double median = (g[4] + g[5]) / 2;
    const std::string row = all[slower].name + "," + all[faster].name + "," + std::to_string(m) +
                            "," + std::to_string(n) + "," + std::to_string(k) + ",10," +
                            fixed(median, 3) + "," + fixed(g.front(), 3) + "," + fixed(g.back(), 3);
    std::printf("[gemm-gain] %s\n", row.c_str());
    gains.push_back(row);
  }
  write_csv("gemm_gain.csv", "slower,faster,m,n,k,runs,median_gain,min_gain,max_gain", gains);
  std::fflush(stdout);
}

} // namespace
