// correlate and its twin on the GPU: the CPU reference on fresh random data, at sizes that
// are not multiples of the block, into poisoned outputs. The starter is slow but right;
// keep it right.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "correlate_reference.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "twin.hpp"

namespace {

using Correlate = std::function<void(const float2*, float2*, int, const lesson02::Taps&)>;

void expect_matches_the_cpu(const std::string& name, const Correlate& correlate) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<int> sizes = {1, 31, 33, 63, 64, 255, 256, 257, 1000, 4096 + 17};
  if (!kit::small_mode()) {
    sizes.push_back((1 << 20) + 3);
  }
  for (int n : sizes) {
    const std::vector<float2> x = lesson02::testing::random_complex(n, seed + n);
    const lesson02::Taps h = lesson02::testing::random_taps(seed ^ 0x9e3779b97f4a7c15ull);
    kit::DeviceBuffer<float2> d_x(x), d_y(x.size());
    d_y.fill_bytes(0xff); // NaN poison: an output never written cannot pass
    correlate(d_x.get(), d_y.get(), n, h);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float2> y = d_y.download();
    const std::vector<lesson02::testing::Expected> want = lesson02::testing::reference(x, h);
    for (int i = 0; i < n; ++i) {
      ASSERT_NEAR(y[i].x, want[i].re, want[i].tol)
          << name << ": n = " << n << ", Re y[" << i << "]";
      ASSERT_NEAR(y[i].y, want[i].im, want[i].tol)
          << name << ": n = " << n << ", Im y[" << i << "]";
    }
  }
}

TEST(Correlate, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("correlate",
                         [](const float2* x, float2* y, int n, const lesson02::Taps& h) {
                           lesson02::correlate(x, y, n, h);
                         });
}

TEST(Correlate, TwinMatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("correlate_twin",
                         [](const float2* x, float2* y, int n, const lesson02::Taps& h) {
                           lesson02::testing::correlate_twin(x, y, n, h);
                         });
}

TEST(Correlate, NothingToDoForAnEmptySignal) {
  KIT_REQUIRE_GPU();
  lesson02::correlate(nullptr, nullptr, 0, lesson02::Taps{});
  CUDA_CHECK(cudaDeviceSynchronize());
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  const lesson02::Taps h{};
  lesson02::correlate(nullptr, nullptr, 0, h);
  lesson02::testing::correlate_twin(nullptr, nullptr, 0, h);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
