// Part 3 timed: on an 8192 x 8192 fp32 matrix, measured in one run with a device-to-device
// cudaMemcpy of the same bytes, the padded transpose reaches at least 0.80 of the copy's
// bandwidth and runs at least kMinSpeedupOverTiled times as fast as the plain tile. The kit's
// timing policy (kit::judge_at_least) measures a miss again before it fails and calls a near
// miss on a busy, throttled or unsteady GPU inconclusive (a skip with the reason).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

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
/// The padded transpose's least speed-up over the plain tile (the shares measured above put
/// the padded tile well clear of it).
constexpr double kMinSpeedupOverTiled = 1.4;

class Bandwidth : public ::testing::Test {
protected:
  void SetUp() override {
    KIT_REQUIRE_TIMING();
    in_ = kit::DeviceBuffer<float>(kElements);
    out_ = kit::DeviceBuffer<float>(kElements);
    in_.fill_bytes(0x3c); // the values do not matter to the timing
  }

  /// One of the lesson's kernels on the test's matrix, as the timer wants it.
  kit::Launch launch(const char* name, lesson05::MatrixOp op) {
    return op_launch(name, op, in_.get(), out_.get(), kBandwidthSide, kBandwidthSide);
  }

  static constexpr std::size_t kElements =
      static_cast<std::size_t>(kBandwidthSide) * static_cast<std::size_t>(kBandwidthSide);
  const std::string size_ =
      " on " + std::to_string(kBandwidthSide) + " x " + std::to_string(kBandwidthSide);
  kit::DeviceBuffer<float> in_, out_;
};

TEST_F(Bandwidth, PaddedReachesFourFifthsOfMemcpy) {
  const kit::AtLeastVerdict v = kit::judge_at_least(
      launch("transpose_padded", lesson05::transpose_padded),
      memcpy_launch(out_.get(), in_.get(), in_.bytes()),
      [](const kit::Slowdown& s) { return s.ratio > 0 ? 1.0 / s.ratio : 0.0; }, kMinShareOfMemcpy,
      "transpose_padded's share of cudaMemcpy's bandwidth" + size_, kBandwidthTiming);
  report_bandwidth("transpose_padded", gigabytes_per_second(in_.bytes(), v.measured.a.median_ms),
                   v.best);
  report_bandwidth("cudaMemcpy D2D", gigabytes_per_second(in_.bytes(), v.measured.b.median_ms),
                   1.0);
  KIT_EXPECT_VERDICT(v, ". Is the column read still conflicted (the counters test says), or does "
                        "each thread wait for one load before it issues the next (unroll the "
                        "phase-1 loop of full tiles so its loads are in flight together)?");
}

TEST_F(Bandwidth, PaddedBeatsThePlainTile) {
  const kit::AtLeastVerdict v = kit::judge_at_least(
      launch("transpose_tiled", lesson05::transpose_tiled),
      launch("transpose_padded", lesson05::transpose_padded),
      [](const kit::Slowdown& s) { return s.ratio; }, kMinSpeedupOverTiled,
      "transpose_padded's speed-up over transpose_tiled" + size_, kBandwidthTiming);
  std::printf("[kit-speedup] transpose_padded over transpose_tiled: %.2fx (at least %.2fx)\n",
              v.best, kMinSpeedupOverTiled);
  std::fflush(stdout);
  KIT_EXPECT_VERDICT(v, ". Both kernels should differ only in the layout of their tile.");
}

} // namespace
