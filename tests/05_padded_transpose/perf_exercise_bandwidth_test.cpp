// Part 3 timed: on an 8192 x 8192 fp32 matrix, measured in one run with a device-to-device
// cudaMemcpy of the same bytes, the padded transpose reaches at least 0.80 of the copy's
// bandwidth and runs at least 1.4x as fast as the plain tile. A miss is measured again
// (kit::kSlowdownAttempts times) before it fails; a near miss on a GPU that is busy or
// throttled is inconclusive (a skip with the reason).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <exercise.hpp>

#include "bandwidth.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

using namespace lesson05::testing;

/// The padded transpose's least share of cudaMemcpy's bandwidth. Measured on an H100 80GB
/// HBM3: a 32 x 33 tile moved by 32 x 8 threads reaches 0.90, NVIDIA's sample (32 x 16
/// threads) 0.78, the plain 32 x 32 tile 0.45-0.52.
constexpr double kMinShareOfMemcpy = 0.80;
/// The padded transpose's least speed-up over the plain tile (the same measurements give
/// 1.7-2.1x).
constexpr double kMinSpeedupOverTiled = 1.4;
/// A miss is called inconclusive (a skip) when the GPU was busy or throttled and the value
/// still reached this fraction of the bar; a larger miss fails whatever the GPU's state (a
/// starter that is 5x too slow is not explained by a busy GPU).
constexpr double kInconclusiveShare = 0.85;

// Skips with the reason when a near miss happened on a busy or throttled GPU.
#define SKIP_IF_INCONCLUSIVE(value, bar, message)                                                  \
  do {                                                                                             \
    if ((value) < (bar) && (value) >= kInconclusiveShare * (bar)) {                                \
      if (const auto busy = kit::gpu_contention()) {                                               \
        GTEST_SKIP() << (message) << ". Inconclusive, not failed: " << *busy;                      \
      }                                                                                            \
    }                                                                                              \
  } while (0)

class Bandwidth : public ::testing::Test {
protected:
  void SetUp() override {
    KIT_REQUIRE_TIMING();
    in_ = kit::DeviceBuffer<float>(kElements);
    out_ = kit::DeviceBuffer<float>(kElements);
    in_.fill_bytes(0x3c); // the values do not matter to the timing
  }

  // Measures until `meets(value)` or kit::kSlowdownAttempts times; returns the best value.
  template <class Measure, class Meets>
  double best_of(Measure measure, Meets meets) {
    double best = 0;
    for (int attempt = 0; attempt < kit::kSlowdownAttempts && !meets(best); ++attempt) {
      best = std::max(best, measure());
    }
    return best;
  }

  static constexpr std::size_t kElements =
      static_cast<std::size_t>(kBandwidthSide) * static_cast<std::size_t>(kBandwidthSide);
  kit::DeviceBuffer<float> in_, out_;
};

TEST_F(Bandwidth, PaddedReachesFourFifthsOfMemcpy) {
  const kit::Launch padded = op_launch("transpose_padded", lesson05::transpose_padded, in_.get(),
                                       out_.get(), kBandwidthSide, kBandwidthSide);
  const kit::Launch copy = memcpy_launch(out_.get(), in_.get(), in_.bytes());
  kit::Slowdown last;
  const double share = best_of(
      [&] {
        last = kit::measure_ratio(padded, copy, kBandwidthTiming);
        return last.ratio > 0 ? 1.0 / last.ratio : 0.0;
      },
      [](double s) { return s >= kMinShareOfMemcpy; });
  report_bandwidth("transpose_padded", gigabytes_per_second(in_.bytes(), last.a.median_ms), share);
  report_bandwidth("cudaMemcpy D2D", gigabytes_per_second(in_.bytes(), last.b.median_ms), 1.0);
  std::ostringstream m;
  m << "transpose_padded on " << kBandwidthSide << " x " << kBandwidthSide << " reached " << share
    << " of cudaMemcpy's bandwidth (at least " << kMinShareOfMemcpy << " expected); medians "
    << last.a.median_ms << " ms against " << last.b.median_ms << " ms";
  SKIP_IF_INCONCLUSIVE(share, kMinShareOfMemcpy, m.str());
  EXPECT_GE(share, kMinShareOfMemcpy)
      << m.str() << ". Is the column read still conflicted (the counters test says), or does "
      << "each thread wait for one load before it issues the next (unroll the phase-1 loop of "
      << "full tiles so its loads are in flight together)?";
}

TEST_F(Bandwidth, PaddedBeatsThePlainTile) {
  const kit::Launch tiled = op_launch("transpose_tiled", lesson05::transpose_tiled, in_.get(),
                                      out_.get(), kBandwidthSide, kBandwidthSide);
  const kit::Launch padded = op_launch("transpose_padded", lesson05::transpose_padded, in_.get(),
                                       out_.get(), kBandwidthSide, kBandwidthSide);
  kit::Slowdown last;
  const double speedup = best_of(
      [&] {
        last = kit::measure_ratio(tiled, padded, kBandwidthTiming);
        return last.ratio;
      },
      [](double s) { return s >= kMinSpeedupOverTiled; });
  std::printf("[kit-speedup] transpose_padded over transpose_tiled: %.2fx (at least %.2fx)\n",
              speedup, kMinSpeedupOverTiled);
  std::ostringstream m;
  m << "transpose_padded ran " << speedup << "x as fast as transpose_tiled (at least "
    << kMinSpeedupOverTiled << "x expected); medians " << last.b.median_ms << " ms against "
    << last.a.median_ms << " ms";
  SKIP_IF_INCONCLUSIVE(speedup, kMinSpeedupOverTiled, m.str());
  EXPECT_GE(speedup, kMinSpeedupOverTiled)
      << m.str() << ". Both kernels should differ only in the pitch of their tile.";
}

} // namespace
