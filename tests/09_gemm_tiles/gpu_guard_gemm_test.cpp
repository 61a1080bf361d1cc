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

/// One shape's inputs (A: m x k, B: k x n, fresh random) and the CPU reference, computed once
/// for every variant.
struct CpuProblem {
  int m, n, k, shift;
  std::vector<float> a, b;
  std::vector<lesson09::testing::Expected> want;

  CpuProblem(int m_, int n_, int k_, int shift_, std::uint64_t seed)
      : m(m_), n(n_), k(k_), shift(shift_),
        a(kit::testing::random_floats(static_cast<std::size_t>(m_) * k_, seed)),
        b(kit::testing::random_floats(static_cast<std::size_t>(k_) * n_,
                                      seed ^ 0x9e3779b97f4a7c15ull)),
        want(lesson09::testing::reference(a, b, m_, n_, k_)) {}
};

/// Runs `v` on the problem's A and B placed `shift` floats into their buffers and expects the
/// CPU reference.
void expect_matches_the_cpu(const Variant& v, const CpuProblem& p) {
  std::vector<float> a_host(p.a.size() + p.shift, 0.0f), b_host(p.b.size() + p.shift, 0.0f);
  std::copy(p.a.begin(), p.a.end(), a_host.begin() + p.shift);
  std::copy(p.b.begin(), p.b.end(), b_host.begin() + p.shift);
  kit::DeviceBuffer<float> d_a(a_host), d_b(b_host);
  kit::DeviceBuffer<float> d_c(static_cast<std::size_t>(p.m) * p.n + p.shift);
  d_c.fill_bytes(0xff); // NaN poison: an element never written cannot pass
  v.run(d_a.get() + p.shift, d_b.get() + p.shift, d_c.get() + p.shift, p.m, p.n, p.k, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = d_c.download();
  for (std::size_t e = 0; e < p.want.size(); ++e) {
    ASSERT_NEAR(got[e + p.shift], p.want[e].value, p.want[e].tol)
        << v.name << ": " << p.m << " x " << p.n << " x " << p.k << (p.shift ? " (shifted)" : "")
        << ", C(" << e / p.n << ", " << e % p.n << ")";
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
  for (const auto& [m, n, k, shift] : shapes) {
    const CpuProblem p(m, n, k, shift, seed + static_cast<std::uint64_t>(m * n + k));
    for (const Variant& v : lesson09::testing::variants()) {
      expect_matches_the_cpu(v, p);
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
