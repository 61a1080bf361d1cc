// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"
#include "twin.hpp"

namespace {

using namespace lesson09;

TEST(Predictions, BlockedScalarRead) {
  KIT_EXPECT_PREDICTION(kPredictedBlockedScalar,
                        kit::wavefronts(b_scalar_read_demo<Blocked>("blocked").access),
                        "lane (tx, ty) reads word 8 tx + j: which lanes share a bank, and do "
                        "they read the same word?");
}

TEST(Predictions, BlockedScalarReadThirtyTwoWide) {
  KIT_EXPECT_PREDICTION(kPredictedBlockedWideScalar,
                        kit::wavefronts(b_scalar_read_32_wide_demo().access),
                        "32 column threads, lane l reads word 4 l + j: which lanes share a "
                        "bank, and with how many different words?");
}

TEST(Predictions, BlockedFloat4Read) {
  KIT_EXPECT_PREDICTION(kPredictedBlockedFloat4,
                        kit::wavefronts(b_float4_read_demo<Blocked>("blocked").access),
                        "a float4 request runs in four phases of 8 lanes: which words do lanes "
                        "0-7 read, and which banks are they in?");
}

TEST(Predictions, AColumnSegmentRead) {
  KIT_EXPECT_PREDICTION(kPredictedAColumnRead, kit::wavefronts(a_column_read_demo().access),
                        "the two row threads of a warp read As[8 ty + i][k]: how far apart are "
                        "their words, and in which banks?");
}

TEST(Predictions, TransposingStore) {
  KIT_EXPECT_PREDICTION(
      kPredictedTransposingStore,
      kit::wavefronts(a_transposing_store_demo().access, kit::SharedOp::store),
      "lanes 2 m and 2 m + 1 store into column m of As[8][128]: which rows, which banks?");
}

} // namespace
