// The TMA mechanics on the GPU, for the modes whose read layouts demo.hpp gives: tiles come
// back exactly (the kit's Swizzle layouts are what the hardware writes), score_tiles matches
// the CPU, and a barrier told to expect the wrong byte count fails in bounded time.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include <demo.hpp>

#include "score_reference.hpp"
#include "tma_testing.hpp"

namespace {

using lesson11::Config;

TEST(Modes, EveryElementComesBackInPlace) {
  LESSON11_REQUIRE_TMA();
  const Config configs[] = {Config::none32x8, Config::b32, Config::none32x16, Config::b64,
                            Config::none32x32};
  for (const Config c : configs) {
    const int box_cols = c == Config::none32x8 || c == Config::b32    ? lesson11::kBox32Cols
                         : c == Config::none32x16 || c == Config::b64 ? lesson11::kBox64Cols
                                                                      : lesson11::kBox128Cols;
    for (const auto& [n_rows, n_cols] : {std::pair{33, 36}, std::pair{100, 260}}) {
      lesson11::testing::expect_exact_copy(c, n_rows, n_cols, box_cols);
    }
  }
}

TEST(Modes, ScoreTilesMatchesTheCpu) {
  LESSON11_REQUIRE_TMA();
  for (const Config c : {Config::b32, Config::b64, Config::none32x32}) {
    lesson11::testing::expect_scores_match(c);
  }
}

TEST(Modes, WrongExpectedByteCountFailsInBoundedTime) {
  LESSON11_REQUIRE_TMA();
  constexpr int kRows = 64, kCols = 64;
  kit::DeviceBuffer<float> in(kRows * kCols), out(kRows * kCols);
  in.fill_bytes(0);
  const std::uint32_t box_bytes =
      lesson11::Box<lesson11::SwizzleMode::b64, lesson11::Swizzle64Layout>::kBytes;
  const auto start = std::chrono::steady_clock::now();
  lesson11::copy_tiles(Config::b64, in.get(), out.get(), kRows, kCols, box_bytes + 16);
  const auto failure = lesson11::take_wait_failure();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(failure) << "a barrier that expects " << box_bytes + 16 << " bytes of a " << box_bytes
                       << "-byte copy completed: the wait is not what it seems";
  EXPECT_EQ(failure->expected, box_bytes + 16);
  EXPECT_EQ(failure->box_bytes, box_bytes);
  const double limit = 3.0 * static_cast<double>(lesson11::kWaitLimitNs) * 1e-9 + 2.0;
  EXPECT_LT(seconds, limit) << "the failed wait took " << seconds << " s to report";
  std::printf("[lesson11] a barrier expecting %u bytes of a %u-byte copy: the wait for tile "
              "(%d, %d) gave up, reported after %.2f s\n",
              failure->expected, failure->box_bytes, failure->tile_row, failure->tile_col, seconds);
  // The next launch is clean again.
  lesson11::copy_tiles(Config::b64, in.get(), out.get(), kRows, kCols);
  EXPECT_FALSE(lesson11::take_wait_failure());
}

TEST(Modes, MatrixTheTmaCannotDescribeIsRefused) {
  LESSON11_REQUIRE_TMA();
  kit::DeviceBuffer<float> in(33 * 33), out(33 * 33);
  EXPECT_THROW(lesson11::copy_tiles(Config::b64, in.get(), out.get(), 33, 33),
               std::invalid_argument);
}

} // namespace
