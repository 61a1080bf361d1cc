// The demos timed, each against its baseline in one saturating run, held to the band around
// the model's ratio: a float2 and a float4 request against a float request; a float4
// broadcast against float4 stride 1; a float4 column of a 32-float-pitch tile against float4
// stride 1; and the 32 x 32 tile's column read at pitch 34 against a row. Wide patterns skip
// where the 8- and 16-byte rules are not verified (sm_90 only); the 4-byte column read runs
// on every GPU.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

void expect_slowdown(const kit::Pattern& a, const kit::Pattern& b) {
  kit::Trace t;
  t.add(a.op, a.access, 1, a.name);
  t.add(b.op, b.access, 1, b.name);
  KIT_REQUIRE_VERIFIED_RULES(t);
  kit::testing::expect_model_slowdown(a, b);
}

TEST(DemoSlowdown, Float2OverFloat) {
  KIT_REQUIRE_TIMING();
  expect_slowdown(lesson07::float2_stride_one_demo(), lesson07::float_stride_one_demo());
}

TEST(DemoSlowdown, Float4OverFloat) {
  KIT_REQUIRE_TIMING();
  expect_slowdown(lesson07::float4_stride_one_demo(), lesson07::float_stride_one_demo());
}

TEST(DemoSlowdown, Float4BroadcastOverFloat4StrideOne) {
  KIT_REQUIRE_TIMING();
  expect_slowdown(lesson07::float4_broadcast_demo(), lesson07::float4_stride_one_demo());
}

TEST(DemoSlowdown, Float4ColumnPitch32OverFloat4StrideOne) {
  KIT_REQUIRE_TIMING();
  expect_slowdown(lesson07::wide_column_demo<4, 32>(), lesson07::float4_stride_one_demo());
}

TEST(DemoSlowdown, LimitColumnPitch34OverARow) {
  KIT_REQUIRE_TIMING();
  expect_slowdown(lesson07::limit_column_read_demo<34>(), lesson07::float_stride_one_demo());
}

} // namespace
