// center_blocks on the GPU: every sample minus the mean of its block, against the CPU on fresh
// random data, at sizes that are not multiples of the block, into poisoned outputs. It was
// right when you found it; keep it right.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

TEST(CenterBlocks, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<int> sizes = {1, 31, 33, 255, 256, 257, 1000, 4096 + 17};
  if (!kit::small_mode()) {
    sizes.push_back((1 << 20) + 3);
  }
  constexpr int kBlock = lesson04::kCenterBlockThreads;
  for (int n : sizes) {
    const std::vector<float> in = kit::testing::random_floats(n, seed + n);
    kit::DeviceBuffer<float> d_in(in), d_out(in.size());
    d_out.fill_bytes(0xff); // NaN poison
    lesson04::center_blocks(d_in.get(), d_out.get(), n);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> out = d_out.download();
    for (int first = 0; first < n; first += kBlock) {
      const int count = std::min(kBlock, n - first);
      double sum = 0, size = 0;
      for (int i = first; i < first + count; ++i) {
        sum += in[i];
        size += std::abs(in[i]);
      }
      const double mean = sum / count;
      // The float sums round at most once per level of two shuffle trees and a division.
      const double tol = 16 * std::numeric_limits<float>::epsilon() * (size / count + 1.0);
      for (int i = first; i < first + count; ++i) {
        ASSERT_NEAR(out[i], in[i] - mean, tol) << "n = " << n << ", sample " << i;
      }
    }
  }
}

} // namespace
