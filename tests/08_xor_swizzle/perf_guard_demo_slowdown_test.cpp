// The demos' column reads timed against a row read in one saturating run: the 16-byte-chunk
// swizzle, the pair swizzle and the 34-float pitch, each in the kit's band around the model's
// ratio.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

TEST(DemoSlowdown, ChunkSwizzleColumn) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson08::chunk_column_demo(), lesson08::row_read_demo());
}

TEST(DemoSlowdown, PairSwizzleColumn) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson08::pair_column_demo(), lesson08::row_read_demo());
}

TEST(DemoSlowdown, Pitch34Column) {
  KIT_REQUIRE_TIMING();
  kit::testing::expect_model_slowdown(lesson08::pitch34_column_demo(), lesson08::row_read_demo());
}

} // namespace
