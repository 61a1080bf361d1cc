// correlate timed against its twin (twin.hpp: the same kernel, its pairs moved as float2:
// same block, same tile, same occupancy): the slowdown lands in the band around the model's
// ratio of the two traces, whatever the layout.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "correlate_timing.hpp"
#include "kit/cuda_check.hpp"
#include "kit/testing.hpp"

namespace {

TEST(CorrelateSlowdown, AsTheModelPredicts) {
  KIT_REQUIRE_TIMING();
  cudaFuncAttributes mine{}, twin{};
  CUDA_CHECK(cudaFuncGetAttributes(&mine, lesson02::correlate_kernel()));
  CUDA_CHECK(cudaFuncGetAttributes(&twin, lesson02::testing::correlate_twin_kernel()));
  ASSERT_EQ(mine.sharedSizeBytes, twin.sharedSizeBytes) << "keep the tile at kTileFloats floats";
  lesson02::testing::expect_slowdown_against_twin();
}

} // namespace
