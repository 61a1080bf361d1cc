// The modes table of the README, measured: for every configuration, the box, the read
// pattern, the model's wavefronts per request and the counters', the store requests the
// counters read (the TMA's writes are not LSU stores), and the time of one score_tiles
// launch. Holds the counters to the model and each swizzle mode's time to at least the speed
// of no swizzle with the same box; writes the table to $LESSON11_TABLE_CSV when that is set
// (docs/measurements/tma_modes.csv comes from there).
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/bands.hpp"
#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/device.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"
#include "modes_trace.hpp"
#include "tma_rule.hpp"
#include "tma_testing.hpp"

namespace {

using lesson11::Config;

struct Row {
  Config config;
  double model = 0;                    // wavefronts per request, model
  std::optional<double> counters;      // wavefronts per request, counters
  std::optional<std::uint64_t> stores; // shared store requests, counters
  double time_us = 0;
};

/// A 4-byte column read of a mode's box (float 0 of rows 0-31), issued by the pattern
/// microbenchmark: the swizzle is built for 16-byte reads, and this row shows what a 4-byte
/// one costs.
struct ColumnRow {
  lesson11::SwizzleMode mode;
  kit::Pattern pattern;
  int box_cols;
  std::optional<double> counters;
};

std::vector<ColumnRow> column_rows() {
  using lesson11::SwizzleMode;
  using lesson11::testing::TmaLayout;
  const auto read = [](auto layout) { return lesson11::float_column_read("", layout, 0); };
  return {{SwizzleMode::b32,
           read(TmaLayout<SwizzleMode::b32, lesson11::kBox32Cols>{}),
           lesson11::kBox32Cols,
           {}},
          {SwizzleMode::b64,
           read(TmaLayout<SwizzleMode::b64, lesson11::kBox64Cols>{}),
           lesson11::kBox64Cols,
           {}},
          {SwizzleMode::b128, read(lesson11::testing::Tma128Layout{}), lesson11::kBox128Cols, {}}};
}

/// The matrix the table times: 2048 stripes of 32 rows by 512 columns (128 MiB), enough
/// blocks for several waves on any GPU; a smaller one for the counters.
constexpr int kTimedRows = 32 * 2048, kTimedCols = 512;
constexpr int kCountedRows = 32 * 64, kCountedCols = 512;

kit::Launch score_launch(Config c, const float* m, const float* q, float* s) {
  return kit::Launch{"score_tiles, " + lesson11::config_name(c), lesson11::score_tiles_kernel(c),
                     lesson11::kScoreThreads, lesson11::score_tiles_smem(c),
                     [=](cudaStream_t stream) {
                       lesson11::score_tiles(c, m, q, s, kTimedRows, kTimedCols, stream);
                     }};
}

std::string read_pattern(Config c) {
  return lesson11::testing::with_read_layout(c, [](auto layout) {
    using L = decltype(layout);
    return "chunk k of rows 0-31 (16 B a lane; rows " +
           std::to_string(L::kCols * static_cast<int>(sizeof(float))) + " B apart)";
  });
}

std::string box_name(Config c) {
  return lesson11::testing::with_read_layout(c, [](auto layout) {
    using L = decltype(layout);
    return std::to_string(L::kRows) + " x " + std::to_string(L::kCols);
  });
}

void write_csv(const std::string& path, const std::vector<Row>& rows,
               const std::vector<ColumnRow>& columns) {
  using kit::fixed;
  kit::MeasurementTable table{
      "LESSON11_TABLE_CSV=docs/measurements/tma_modes.csv ctest --test-dir <build> "
      "-R solution/lesson11/ModesTable",
      {},
      {"score_tiles over a " + std::to_string(kTimedRows) + " x " + std::to_string(kTimedCols) +
       " float matrix, 16 warps a block each reading every tile; time: median of one run's "
       "launches; counters over a " +
       std::to_string(kCountedRows) + " x " + std::to_string(kCountedCols) +
       " matrix; the 4-byte rows: the pattern microbenchmark reading the mode's box layout, "
       "no time"},
      "mode,box,read,model_wavefronts,counter_wavefronts,counter_store_requests,time_us",
      {}};
  for (const Row& r : rows) {
    table.rows.push_back(lesson11::mode_name(lesson11::config_mode(r.config)) + "," +
                         box_name(r.config) + ",\"" + read_pattern(r.config) + "\"," +
                         fixed(r.model, 0) + "," + (r.counters ? fixed(*r.counters, 2) : "") + "," +
                         (r.stores ? std::to_string(*r.stores) : "") + "," + fixed(r.time_us, 1));
  }
  for (const ColumnRow& r : columns) {
    table.rows.push_back(lesson11::mode_name(r.mode) + "," + std::to_string(lesson11::kBoxRows) +
                         " x " + std::to_string(r.box_cols) +
                         ",\"float 0 of rows 0-31 (4 B a lane)\"," +
                         std::to_string(kit::wavefronts(r.pattern.access)) + "," +
                         (r.counters ? fixed(*r.counters, 2) : "") + ",,");
  }
  ASSERT_TRUE(kit::write_measurement_csv(path, table)) << "could not write " << path;
}

TEST(ModesTable, CountersEqualTheModelAndSwizzlingIsNeverSlower) {
  KIT_REQUIRE_TIMING();
  LESSON11_REQUIRE_TMA();
  std::vector<Row> rows;
  for (const Config c : lesson11::kConfigs) {
    rows.push_back({c, lesson11::testing::model_wavefronts_per_request(c), {}, {}, 0});
  }
  std::vector<ColumnRow> columns = column_rows();
  const std::uint64_t seed = kit::testing::fresh_seed();
  kit::DeviceBuffer<float> m(
      kit::testing::random_floats(static_cast<std::size_t>(kTimedRows) * kTimedCols, seed));
  kit::DeviceBuffer<float> q(kit::testing::random_floats(
      static_cast<std::size_t>(lesson11::kQueries) * kTimedCols, seed + 1));
  kit::DeviceBuffer<float> s(static_cast<std::size_t>(lesson11::kQueries) * kTimedRows);
  { // counters first; the timer refuses to time while a session is open
    auto session = std::make_unique<kit::CounterSession>();
    if (session->ok()) {
      for (Row& r : rows) {
        const kit::SharedCounters got = session->measure([&] {
          lesson11::score_tiles(r.config, m.get(), q.get(), s.get(), kCountedRows, kCountedCols);
        });
        const kit::Trace trace =
            lesson11::testing::score_trace(r.config, kCountedRows, kCountedCols);
        r.counters = got.sass.load_wavefronts_per_request();
        r.stores = got.sass.store_requests;
        EXPECT_TRUE(kit::testing::counts_match(got, trace.expected()))
            << lesson11::config_name(r.config);
      }
      for (ColumnRow& r : columns) {
        const kit::PatternBench bench(r.pattern);
        const kit::SharedCounters got = session->measure([&] { bench.run(4, 2); });
        EXPECT_TRUE(kit::testing::counts_match(got, bench.trace(4, 2).expected()))
            << lesson11::mode_name(r.mode) << ", float column";
        r.counters = static_cast<double>(got.sass.load_wavefronts) /
                     static_cast<double>(bench.pattern_requests(4, 2));
      }
    } else {
      std::printf("[lesson11] counters not read: %s\n", session->refusal().c_str());
    }
  }
  for (Row& r : rows) {
    r.time_us = kit::time_launch(score_launch(r.config, m.get(), q.get(), s.get())).median_ms * 1e3;
  }
  ASSERT_FALSE(lesson11::take_wait_failure());
  for (const Row& r : rows) {
    std::printf("[lesson11-table] %-24s model %5.2f counters %5s stores %s time %8.1f us\n",
                lesson11::config_name(r.config).c_str(), r.model,
                r.counters ? std::to_string(*r.counters).substr(0, 5).c_str() : "-",
                r.stores ? std::to_string(*r.stores).c_str() : "-", r.time_us);
  }
  if (const auto path = kit::env("LESSON11_TABLE_CSV")) {
    write_csv(*path, rows, columns);
  }
  // Each swizzle mode against no swizzle with its box: at least as fast (the kit's unit band).
  const std::pair<Config, Config> pairs[] = {{Config::none32x8, Config::b32},
                                             {Config::none32x16, Config::b64},
                                             {Config::none32x32, Config::b128}};
  for (const auto& [plain, swizzled] : pairs) {
    const kit::AtLeastVerdict v = kit::judge_at_least(
        score_launch(plain, m.get(), q.get(), s.get()),
        score_launch(swizzled, m.get(), q.get(), s.get()),
        [](const kit::Slowdown& sd) { return sd.ratio; }, kit::kUnitBandLow,
        "time of " + lesson11::config_name(plain) + " over " + lesson11::config_name(swizzled));
    KIT_EXPECT_VERDICT(v, "");
  }
}

} // namespace
