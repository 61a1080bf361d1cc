// The lesson's kernels run cleanly (this file also runs under compute-sanitizer's memcheck and
// racecheck): the probe leaves its sink alone; the chain comes back.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

TEST(DemoKernels, ProbeLeavesTheSinkAlone) {
  KIT_REQUIRE_GPU();
  const lesson10::ProbeLaunch l{3, 96, 2};
  const float sentinel = -7.0f; // the probe writes only a negative sum, and its sums are >= 0
  for (lesson10::Probe p : {lesson10::Probe::conflict, lesson10::Probe::twin}) {
    kit::DeviceBuffer<float> sink(std::vector<float>{sentinel});
    lesson10::launch_probe(p, l, sink.get());
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(sink.download()[0], sentinel) << lesson10::probe_name(p);
  }
}

TEST(DemoKernels, ChainMeasuresAPositiveLatency) {
  KIT_REQUIRE_GPU();
  for (int stride : {0, 1, 32}) {
    const double c = lesson10::chain_cycles_per_load(stride);
    EXPECT_TRUE(std::isfinite(c) && c > 0) << "stride " << stride << ": " << c;
  }
}

} // namespace
