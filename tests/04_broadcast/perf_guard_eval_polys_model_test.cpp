// eval_polys timed against its twin (twin.hpp: the same kernel with a padded table: same
// block, same shared table, same occupancy): the slowdown lands in the band around the model's
// ratio of the two traces, whatever the layout.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "eval_polys_gpu.hpp"
#include "kit/cuda_check.hpp"
#include "kit/testing.hpp"

namespace {

TEST(EvalPolysSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  cudaFuncAttributes mine{}, twin{};
  CUDA_CHECK(cudaFuncGetAttributes(&mine, lesson04::eval_polys_kernel()));
  CUDA_CHECK(cudaFuncGetAttributes(&twin, lesson04::testing::eval_polys_twin_kernel()));
  ASSERT_EQ(mine.sharedSizeBytes, twin.sharedSizeBytes)
      << "keep the table at kTableCapacity floats";
  lesson04::testing::expect_slowdown_against_twin();
}

} // namespace
