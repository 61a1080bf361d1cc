// Every GEMM of the lesson on the GPU against the CPU reference (double, with the tolerance
// of a float sum of k terms: gemm_run.hpp), on fresh random data, for ragged shapes up to 512,
// into poisoned outputs; rows whose length is a multiple of 4 (the float4 paths) and rows that
// are not, pointers 16-byte aligned and not. The starter is right but slow; keep it right.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "gemm_run.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

using lesson09::testing::Variant;

/// Runs `v` on A (m x k) and B (k x n) placed `shift` floats into their buffers and expects
/// the CPU reference.
void expect_matches_the_cpu(const Variant& v, int m, int n, int k, int shift, std::uint64_t seed) {
  const std::vector<float> a = kit::testing::random_floats(static_cast<std::size_t>(m) * k, seed);
  const std::vector<float> b =
      kit::testing::random_floats(static_cast<std::size_t>(k) * n, seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<float> a_host(a.size() + shift, 0.0f), b_host(b.size() + shift, 0.0f);
  std::copy(a.begin(), a.end(), a_host.begin() + shift);
  std::copy(b.begin(), b.end(), b_host.begin() + shift);
  kit::DeviceBuffer<float> d_a(a_host), d_b(b_host);
  kit::DeviceBuffer<float> d_c(static_cast<std::size_t>(m) * n + shift);
  d_c.fill_bytes(0xff); // NaN poison: an element never written cannot pass
  v.run(d_a.get() + shift, d_b.get() + shift, d_c.get() + shift, m, n, k, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = d_c.download();
  const std::vector<lesson09::testing::Expected> want = lesson09::testing::reference(a, b, m, n, k);
  for (std::size_t e = 0; e < want.size(); ++e) {
    ASSERT_NEAR(got[e + shift], want[e].value, want[e].tol)
        << v.name << ": " << m << " x " << n << " x " << k << (shift ? " (shifted)" : "") << ", C("
        << e / n << ", " << e % n << ")";
  }
}

TEST(Gemm, EveryVariantMatchesTheCpu) {
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<std::array<int, 4>> shapes = {// m, n, k, shift (floats)
                                            {1, 1, 1, 0},      {33, 31, 17, 0},  {128, 128, 8, 0},
                                            {129, 132, 12, 0}, {200, 68, 77, 0}, {64, 96, 40, 1}};
  if (!kit::small_mode()) {
    shapes.push_back({512, 512, 512, 0});
    shapes.push_back({300, 509, 511, 0});
  }
  for (const Variant& v : lesson09::testing::variants()) {
    for (const auto& [m, n, k, shift] : shapes) {
      expect_matches_the_cpu(v, m, n, k, shift, seed + static_cast<std::uint64_t>(m * n + k));
      if (HasFatalFailure()) {
        return;
      }
    }
  }
}

TEST(Gemm, NoKWritesZeros) {
  KIT_REQUIRE_GPU();
  constexpr int kM = 45, kN = 130;
  for (const Variant& v : lesson09::testing::variants()) {
    kit::DeviceBuffer<float> d_c(static_cast<std::size_t>(kM) * kN);
    d_c.fill_bytes(0xff);
    v.run(nullptr, nullptr, d_c.get(), kM, kN, 0, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (float c : d_c.download()) {
      ASSERT_EQ(c, 0.0f) << v.name << ": a product over no terms is 0";
    }
  }
}

// An empty C launches nothing and touches no memory: no error, even with null pointers.
TEST(Gemm, EmptyLaunchesNothing) {
  KIT_REQUIRE_GPU();
  for (const Variant& v : lesson09::testing::variants()) {
    v.run(nullptr, nullptr, nullptr, 0, 17, 5, nullptr);
    v.run(nullptr, nullptr, nullptr, 17, 0, 5, nullptr);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
