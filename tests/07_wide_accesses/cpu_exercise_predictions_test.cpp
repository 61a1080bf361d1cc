// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

using kit::SharedOp;

int model(const kit::Pattern& p) {
  return kit::wavefronts(p.access, p.op);
}

TEST(Predictions, Float4StrideOneWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson07::kPredictedFloat4StrideOneWavefronts, model(lesson07::float4_stride_one_demo()),
      "a wavefront moves at most 128 bytes: how many does a float4 request move?");
}

TEST(Predictions, Float4OverFloatSlowdown) {
  KIT_EXPECT_PREDICTION(
      lesson07::kPredictedFloat4OverFloatSlowdown,
      kit::model_ratio(lesson07::float4_stride_one_demo(), lesson07::float_stride_one_demo()),
      "when the shared-memory pipe is the bottleneck, time is proportional to wavefronts");
}

TEST(Predictions, Float4StrideTwoWavefronts) {
  KIT_EXPECT_PREDICTION(lesson07::kPredictedFloat4StrideTwoWavefronts,
                        model(lesson07::float4_stride_two_demo()),
                        "list the banks of lanes 0-7 (one phase): how many lanes share each?");
}

TEST(Predictions, Float2BroadcastLoadWavefronts) {
  KIT_EXPECT_PREDICTION(lesson07::kPredictedFloat2BroadcastLoadWavefronts,
                        model(lesson07::float2_broadcast_demo()),
                        "every pair (l, l^1) shares an address: what does a load do with that?");
}

TEST(Predictions, Float2BroadcastStoreWavefronts) {
  KIT_EXPECT_PREDICTION(lesson07::kPredictedFloat2BroadcastStoreWavefronts,
                        model(lesson07::float2_broadcast_demo(SharedOp::store)),
                        "do stores merge pairs (l, l^1) the way loads do?");
}

TEST(Predictions, Float4ColumnPitch32Wavefronts) {
  KIT_EXPECT_PREDICTION(lesson07::kPredictedFloat4ColumnPitch32Wavefronts,
                        model(lesson07::wide_column_demo<4, 32>()),
                        "lane l reads words 32 l ... 32 l + 3: which banks, and how many lanes "
                        "of one phase ask each?");
}

TEST(Predictions, Float2ColumnPitch36Wavefronts) {
  KIT_EXPECT_PREDICTION(lesson07::kPredictedFloat2ColumnPitch36Wavefronts,
                        model(lesson07::wide_column_demo<2, 36>()),
                        "lane l reads words 36 l and 36 l + 1: within a half-warp, which lanes "
                        "share a bank?");
}

} // namespace
