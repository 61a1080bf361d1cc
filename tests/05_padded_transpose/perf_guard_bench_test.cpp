// The benchmark table: every kernel of the lesson and every faster variant on an 8192 x 8192
// fp32 matrix, each timed in one run against a device-to-device cudaMemcpy of the same bytes
// (read + write). Each kernel's result is checked once before it is timed. Prints one
// `[kit-bandwidth]` line per kernel and a table; asserts only correctness (the bars are in
// perf_exercise_bandwidth_test).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>
#include <faster.hpp>

#include "bandwidth.hpp"
#include "kit/buffer.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"
#include "matrix_check.hpp"

namespace {

using namespace lesson05::testing;

struct Entry {
  std::string name;
  lesson05::MatrixOp op;
  bool transposes;
};

TEST(Bench, TableAt8192) {
  KIT_REQUIRE_TIMING();
  const Shape s{kBandwidthSide, kBandwidthSide};
  const std::uint64_t seed = kit::testing::fresh_seed();
  const std::vector<std::uint32_t> in = kit::testing::random_bits(s.size(), seed);
  const std::vector<std::uint32_t> want = cpu_transpose(in, s);
  kit::DeviceBuffer<std::uint32_t> d_in(in), d_out(s.size());

  std::vector<Entry> entries = {
      {"copy_matrix", lesson05::copy_matrix, false},
      {"transpose_naive", lesson05::transpose_naive, true},
      {"transpose_tiled", lesson05::transpose_tiled, true},
      {"transpose_padded", lesson05::transpose_padded, true},
  };
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    entries.push_back({v.name, v.op, v.transposes});
  }

  const kit::Launch copy = memcpy_launch(as_floats(d_out), as_floats(d_in), d_in.bytes());
  std::printf("%s, %d x %d fp32 (%zu MiB each way)\n", kit::gpu_status().name.c_str(), s.rows,
              s.cols, d_in.bytes() >> 20);
  std::vector<std::string> lines;
  for (const Entry& e : entries) {
    d_out.fill_bytes(0xff);
    e.op(as_floats(d_in), as_floats(d_out), s.rows, s.cols, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(
        same_bits(d_out.download(), e.transposes ? want : in, e.transposes ? s.rows : s.cols))
        << e.name << " is wrong on " << s.name() << ": its timing means nothing";

    const kit::Launch run =
        op_launch(e.name, e.op, as_floats(d_in), as_floats(d_out), s.rows, s.cols);
    const kit::Slowdown t = kit::measure_ratio(run, copy, kBandwidthTiming);
    const double gbps = gigabytes_per_second(d_in.bytes(), t.a.median_ms);
    const double share = t.ratio > 0 ? 1.0 / t.ratio : 0.0;
    report_bandwidth(e.name, gbps, share);
    char line[160];
    std::snprintf(line, sizeof line, "| %s | %.0f | %.3f |", e.name.c_str(), gbps, share);
    lines.push_back(line);
    if (&e == &entries.back()) {
      std::snprintf(line, sizeof line, "| cudaMemcpy D2D | %.0f | 1.000 |",
                    gigabytes_per_second(d_in.bytes(), t.b.median_ms));
      lines.push_back(line);
    }
  }
  std::printf("| kernel | GB/s | of cudaMemcpy |\n|---|---|---|\n");
  for (const std::string& l : lines) {
    std::printf("%s\n", l.c_str());
  }
  std::fflush(stdout);
}

} // namespace
