// Counters of every configuration's kernels equal the model of their traces: the read
// pattern of each mode costs what the bank model says, and the TMA's writes read as no
// store requests at all. A 4-byte column read of every mode's box costs what the model says.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "modes_trace.hpp"
#include "tma_rule.hpp"
#include "tma_testing.hpp"

namespace {

class ModesCounters : public kit::testing::CounterTest {};

TEST_F(ModesCounters, CopyTilesEqualsTheModel) {
  LESSON11_REQUIRE_TMA();
  constexpr int kRows = 32 * 12 + 5, kCols = 200;
  kit::DeviceBuffer<float> in(kRows * kCols), out(kRows * kCols);
  in.fill_bytes(0);
  for (const lesson11::Config c : lesson11::kConfigs) {
    if (c == lesson11::Config::b128) {
      continue; // the exercise's (Read128Counters)
    }
    const kit::Trace trace = lesson11::testing::copy_trace(c, kRows, kCols);
    KIT_REQUIRE_VERIFIED_RULES(trace);
    expect_counts("copy_tiles, " + lesson11::config_name(c), trace,
                  [&] { lesson11::copy_tiles(c, in.get(), out.get(), kRows, kCols); });
  }
  EXPECT_FALSE(lesson11::take_wait_failure());
}

TEST_F(ModesCounters, ScoreTilesEqualsTheModel) {
  LESSON11_REQUIRE_TMA();
  constexpr int kRows = 32 * 6 + 3, kCols = 96;
  kit::DeviceBuffer<float> m(kRows * kCols), q(lesson11::kQueries * kCols),
      s(lesson11::kQueries * kRows);
  m.fill_bytes(0);
  q.fill_bytes(0);
  for (const lesson11::Config c : lesson11::kConfigs) {
    if (c == lesson11::Config::b128) {
      continue;
    }
    const kit::Trace trace = lesson11::testing::score_trace(c, kRows, kCols);
    KIT_REQUIRE_VERIFIED_RULES(trace);
    expect_counts("score_tiles, " + lesson11::config_name(c), trace,
                  [&] { lesson11::score_tiles(c, m.get(), q.get(), s.get(), kRows, kCols); });
  }
  EXPECT_FALSE(lesson11::take_wait_failure());
}

TEST_F(ModesCounters, FloatColumnOfEveryModeEqualsTheModel) {
  KIT_REQUIRE_GPU();
  using lesson11::SwizzleMode;
  using lesson11::testing::TmaLayout;
  for (const int col : {0, 5}) {
    expect_pattern(lesson11::float_column_read(
        "32B box", TmaLayout<SwizzleMode::b32, lesson11::kBox32Cols>{}, col));
    expect_pattern(lesson11::float_column_read(
        "64B box", TmaLayout<SwizzleMode::b64, lesson11::kBox64Cols>{}, col));
    expect_pattern(lesson11::float_column_read("128B box", lesson11::testing::Tma128Layout{}, col));
  }
}

} // namespace
