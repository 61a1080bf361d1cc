// Part 1: your predictions, checked by the bank model (no GPU needed).
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/ldmatrix.hpp"
#include "kit/prediction.hpp"

namespace {

TEST(Predictions, ChunkColumnWavefronts) {
  KIT_EXPECT_PREDICTION(lesson08::kPredictedChunkColumnWavefronts,
                        kit::wavefronts(lesson08::chunk_column_demo().access),
                        "lane l reads column 0 of row l: which 16-byte chunk of the row, and so "
                        "which banks, can that be? How many rows share each chunk position?");
}

TEST(Predictions, PairColumnWavefronts) {
  KIT_EXPECT_PREDICTION(lesson08::kPredictedPairColumnWavefronts,
                        kit::wavefronts(lesson08::pair_column_demo().access),
                        "the XOR moves whole pairs: which float of its pair does column 0 stay, "
                        "and how many different pair positions do 32 rows reach?");
}

TEST(Predictions, Pitch34ColumnWavefronts) {
  KIT_EXPECT_PREDICTION(lesson08::kPredictedPitch34ColumnWavefronts,
                        kit::wavefronts(lesson08::pitch34_column_demo().access),
                        "lane l reads word 34 l: (34 l) mod 32 = 2 l mod 32, for l = 0 ... 31");
}

TEST(Predictions, ChunkPairStoreWavefronts) {
  KIT_EXPECT_PREDICTION(
      lesson08::kPredictedChunkPairStoreWavefronts,
      kit::wavefronts(lesson08::chunk_pair_store_demo().access, kit::SharedOp::store),
      "an 8-byte store is two half-warp phases; what does each half-warp "
      "cover of its row?");
}

TEST(Predictions, PlainLdsmWavefronts) {
  KIT_EXPECT_PREDICTION(lesson08::kPredictedPlainLdsmWavefronts,
                        kit::ldsm_wavefronts(lesson08::plain_ldsm_demo().access),
                        "each matrix is a phase of 8 lanes; rows 128 bytes apart start in the "
                        "same bank");
}

TEST(Predictions, PaddedLdsmWavefronts) {
  KIT_EXPECT_PREDICTION(lesson08::kPredictedPaddedLdsmWavefronts,
                        kit::ldsm_wavefronts(lesson08::padded_ldsm_demo().access),
                        "rows 144 bytes apart: row r of a matrix starts in bank 36 r mod 32");
}

} // namespace
