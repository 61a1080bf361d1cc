// cuBLAS SGEMM as the yardstick: FP32 math (no TF32), every kernel's answer against cuBLAS's
// at 4096^3 (the check itself tested at a small size), and the float4 kernel's least share of
// cuBLAS's speed on an architecture where it was measured (skipped elsewhere, with the reason).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>

#include "cublas_sgemm.hpp"
#include "gemm_problem.hpp"
#include "gemm_run.hpp"
#include "gemm_share.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

using namespace lesson09::testing;

// 1 + 2^-12 is a float that TF32 (10 mantissa bits) rounds to 1: with A all 1 + 2^-12 and B
// all 1, every partial sum is exact in FP32 and C is k + k / 4096 = 4097 exactly, in any
// order of summation; TF32 inputs would give 4096.
TEST(Cublas, ComputesInFp32) {
  KIT_REQUIRE_GPU();
  LESSON09_REQUIRE_CUBLAS();
  const float a_value = 1.0f + std::ldexp(1.0f, -12);
  const float exact = static_cast<float>(kShareSide) * a_value;
  const std::size_t elems = static_cast<std::size_t>(kShareSide) * kShareSide;
  kit::DeviceBuffer<float> a(std::vector<float>(elems, a_value));
  kit::DeviceBuffer<float> b(std::vector<float>(elems, 1.0f));
  kit::DeviceBuffer<float> c(elems);
  Cublas cublas;
  for (const char* name : {"cublasSgemm", "gemm_strided_by_four"}) {
    c.fill_bytes(0xff);
    if (name == std::string("cublasSgemm")) {
      cublas.sgemm(a.get(), b.get(), c.get(), kShareSide, kShareSide, kShareSide);
    } else {
      variant(name).run(a.get(), b.get(), c.get(), kShareSide, kShareSide, kShareSide, nullptr);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = c.download();
    for (std::size_t e = 0; e < got.size(); ++e) {
      ASSERT_EQ(got[e], exact) << name << ": C(" << e / kShareSide << ", " << e % kShareSide
                               << ") with A = 1 + 2^-12, B = 1: "
                               << (got[e] == static_cast<float>(kShareSide) ? "TF32 inputs"
                                                                            : "wrong");
    }
  }
}

// The elements spoiled_blocked_scalar writes over the blocked kernel's answer: (index, value).
std::vector<std::pair<std::size_t, float>> g_spoiled;

void spoiled_blocked_scalar(const float* a, const float* b, float* c, int m, int n, int k,
                            cudaStream_t stream) {
  lesson09::gemm_blocked_scalar(a, b, c, m, n, k, stream);
  for (const auto& [e, value] : g_spoiled) {
    CUDA_CHECK(cudaMemcpyAsync(c + e, &value, sizeof value, cudaMemcpyHostToDevice, stream));
  }
}

bool names(const ::testing::AssertionResult& r, const std::string& text) {
  return std::string(r.message()).find(text) != std::string::npos;
}

// Problem::check, which the 4096^3 comparisons rely on, at a ragged small size: it passes a
// kernel's answer, and refuses one element moved outside the tolerance or a NaN, naming the
// first such element.
TEST(Cublas, TheCheckNamesTheFirstElementOutsideTheTolerance) {
  KIT_REQUIRE_GPU();
  LESSON09_REQUIRE_CUBLAS();
  constexpr int m = 133, n = 97, k = 71;
  Cublas cublas;
  Problem p(cublas, m, n, k, kit::testing::fresh_seed());
  const Variant spoiled{"spoiled", spoiled_blocked_scalar, nullptr};
  g_spoiled.clear();
  EXPECT_TRUE(p.check(spoiled));
  // |C(i, j)| <= k for inputs in [-1, 1): 2k + 1 is at least k + 1 away from the answer.
  const std::size_t first = 5 * n + 7, later = 90 * n + 3;
  g_spoiled = {{later, std::numeric_limits<float>::quiet_NaN()}, {first, 2.0f * k + 1}};
  const ::testing::AssertionResult both = p.check(spoiled);
  EXPECT_FALSE(both);
  EXPECT_TRUE(names(both, "C(5, 7) = 143")) << both.message();
  g_spoiled = {{later, std::numeric_limits<float>::quiet_NaN()}};
  const ::testing::AssertionResult nan = p.check(spoiled);
  EXPECT_FALSE(nan);
  EXPECT_TRUE(names(nan, "C(90, 3) = nan")) << nan.message();
  g_spoiled.clear();
}

// One launch of each kernel, in the order of variants(), after cuBLAS's two (the answer and
// |A| |B|): the launches a profiler run of this test sees.
TEST(Cublas, EveryVariantMatchesCublasAt4096) {
  KIT_REQUIRE_GPU();
  LESSON09_REQUIRE_CUBLAS();
  if (kit::small_mode()) {
    GTEST_SKIP() << "4096^3 is not run in the small mode";
  }
  Cublas cublas;
  Problem p(cublas, kShareSide, kShareSide, kShareSide, kit::testing::fresh_seed());
  for (const Variant& v : variants()) {
    EXPECT_TRUE(p.check(v));
  }
}

TEST(CublasShare, StridedByFourReachesTheStretchGoal) {
  KIT_REQUIRE_TIMING();
  LESSON09_REQUIRE_CUBLAS();
  // The lesson's stretch goal, 0.7 of cuBLAS, on the architecture where it was measured.
  expect_share_of_cublas(variant("gemm_strided_by_four"), {{90, 0.7}},
                         ". Its fragment reads cost their ideal: is the GPU shared?");
}

} // namespace
