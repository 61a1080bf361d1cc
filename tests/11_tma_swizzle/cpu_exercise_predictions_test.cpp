// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"
#include "tma_rule.hpp"

namespace {

TEST(Predictions, PlainChunkWavefronts) {
  KIT_EXPECT_PREDICTION(lesson11::kPredictedPlainChunkWavefronts,
                        kit::wavefronts(lesson11::plain_chunk_demo().access),
                        "rows 128 bytes apart: which banks does chunk 0 of rows 0-7 use?");
}

TEST(Predictions, Swizzle64ChunkWavefronts) {
  KIT_EXPECT_PREDICTION(lesson11::kPredictedSwizzle64ChunkWavefronts,
                        kit::wavefronts(lesson11::swizzle64_chunk_demo().access),
                        "rows 64 bytes apart, chunk k of row r at chunk k ^ ((r / 2) % 4): "
                        "draw rows 0-7");
}

TEST(Predictions, Swizzle128FloatColumnWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson11::kPredictedSwizzle128FloatColumnWavefronts,
      kit::wavefronts(
          lesson11::float_column_read("128B", lesson11::testing::Tma128Layout{}, 0).access),
      "a float's bank within its chunk never changes: how many banks can 32 rows reach?");
}

} // namespace
