// Part 3 on the GPU: reverse_blocks reverses every block on fresh random data, at sizes
// that are not multiples of the block, and the counters read one wavefront per request.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "reverse_trace.hpp"

namespace {

std::vector<float> reference(const std::vector<float>& in) {
  std::vector<float> out(in.size());
  const int n = static_cast<int>(in.size());
  for (int first = 0; first < n; first += lesson01::kBlockThreads) {
    const int count = std::min(lesson01::kBlockThreads, n - first);
    for (int t = 0; t < count; ++t) {
      out[first + t] = in[first + count - 1 - t];
    }
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

class ReverseCounters : public kit::testing::CounterTest {};

TEST_F(ReverseCounters, OneWavefrontPerRequest) {
  for (int n : {lesson01::kBlockThreads * 64, lesson01::kBlockThreads * 3 + 77}) {
    kit::DeviceBuffer<float> d_in(n), d_out(n);
    d_in.fill_bytes(0);
    const kit::SharedCounters c =
        session().measure([&] { lesson01::reverse_blocks(d_in.get(), d_out.get(), n); });
    kit::testing::report("reverse_blocks n=" + std::to_string(n), c,
                         lesson01::testing::reverse_trace(n).expected());
    const int ideal = kit::ideal_wavefronts(sizeof(float));
    EXPECT_EQ(c.sass.store_wavefronts, ideal * c.sass.store_requests)
        << "n = " << n << ": the staging stores conflict (" << c.sass.store_wavefronts
        << " wavefronts for " << c.sass.store_requests << " requests)";
    EXPECT_EQ(c.sass.load_wavefronts, ideal * c.sass.load_requests)
        << "n = " << n << ": the readback loads conflict (" << c.sass.load_wavefronts
        << " wavefronts for " << c.sass.load_requests << " requests)";
  }
}

} // namespace
