// Part 3 on the GPU: reverse_blocks reverses every block on fresh random data, at sizes
// that are not multiples of the block (gpu_exercise_reverse_counters_test.cpp reads its
// wavefronts).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

std::vector<float> reference(const std::vector<float>& in) {
  std::vector<float> out(in.size());
  const int n = static_cast<int>(in.size());
  for (int first = 0; first < n; first += lesson01::kBlockThreads) {
    const int count = std::min(lesson01::kBlockThreads, n - first);
    std::reverse_copy(in.begin() + first, in.begin() + first + count, out.begin() + first);
  }
  return out;
}

TEST(ReverseBlocks, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<int> sizes = {1, 31, 33, 255, 256, 257, 1000, 4096 + 17};
  if (!kit::small_mode()) {
    sizes.push_back((1 << 20) + 3);
  }
  for (int n : sizes) {
    const std::vector<float> in = kit::testing::random_floats(n, seed + n);
    kit::DeviceBuffer<float> d_in(in), d_out(in.size());
    d_out.fill_bytes(0xff); // NaN poison: an element never written cannot pass
    lesson01::reverse_blocks(d_in.get(), d_out.get(), n);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> out = d_out.download();
    const std::vector<float> want = reference(in);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], want[i]) << "n = " << n << ", element " << i << " (block "
                                 << i / lesson01::kBlockThreads << ")";
    }
  }
}

} // namespace
