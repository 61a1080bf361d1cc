// Both transposes against the CPU on fresh random halves (NaNs and infinities included):
// a transpose moves bits, so the result must be exact, at every shape (odd shapes and
// ragged tiles take the scalar path, full tiles of even shapes move in pairs). The starter's
// kernels are correct: keep them so. transpose_half2 is launched only when every pair
// access is aligned: a misaligned shared access would fault and take the CUDA context with
// it.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "half_check.hpp"
#include "half_trace.hpp"
#include "kit/testing.hpp"

namespace {

TEST(Correctness, TransposeHalfMatchesTheCpu) {
  KIT_REQUIRE_GPU();
  lesson06::testing::expect_transposes("transpose_half", lesson06::transpose_half,
                                       kit::testing::fresh_seed());
}

TEST(Correctness, TransposeHalf2MatchesTheCpu) {
  KIT_REQUIRE_GPU();
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  lesson06::testing::expect_transposes("transpose_half2", lesson06::transpose_half2,
                                       kit::testing::fresh_seed());
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  lesson06::transpose_half(nullptr, nullptr, 0, 0);
  lesson06::transpose_half(nullptr, nullptr, 0, 9);
  lesson06::transpose_half2(nullptr, nullptr, 9, 0);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
