// The lesson's facts from the model (no GPU needed): demo.hpp's layouts are the TMA's rule,
// the rule is CuTe's Swizzle<B, 4, 3> on byte offsets, the chunk columns of every mode's box
// against the ideal of a 16-byte request (and no swizzle's boxes against each other), and a
// 4-byte column read under every swizzle mode, held to what the box's geometry gives.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "modes_trace.hpp"
#include "tma_rule.hpp"

namespace {

using lesson11::SwizzleMode;
using lesson11::testing::tma_byte_offset;
using lesson11::testing::TmaLayout;

template <class Layout, class Rule>
void expect_same_layout(const char* name) {
  for (int r = 0; r < Layout::kRows; ++r) {
    for (int c = 0; c < Layout::kCols; ++c) {
      ASSERT_EQ(Layout{}(r, c), Rule{}(r, c)) << name << ": element (" << r << ", " << c << ")";
    }
  }
}

TEST(Modes, DemoLayoutsAreTheTmaRule) {
  expect_same_layout<lesson11::Swizzle32Layout, TmaLayout<SwizzleMode::b32, lesson11::kBox32Cols>>(
      "32B");
  expect_same_layout<lesson11::Swizzle64Layout, TmaLayout<SwizzleMode::b64, lesson11::kBox64Cols>>(
      "64B");
  expect_same_layout<lesson11::PlainBoxLayout<lesson11::kBox128Cols>,
                     TmaLayout<SwizzleMode::none, lesson11::kBox128Cols>>("none");
}

TEST(Modes, RuleIsCuteSwizzleOnByteOffsets) {
  // CuTe's GMMA atoms: 32B / 64B / 128B = Swizzle<1,4,3>, <2,4,3>, <3,4,3> on byte offsets;
  // the pattern repeats every 256 / 512 / 1024 bytes, so 1024 bytes of any row length show it.
  for (int row_bytes : {32, 64, 128}) {
    for (int a = 0; a < 4 * lesson11::kTileAlignment; ++a) {
      const int row = a / row_bytes, byte = a % row_bytes;
      EXPECT_EQ(tma_byte_offset(SwizzleMode::b32, row_bytes, row, byte),
                (kit::Swizzle<1, 4, 3>{}(a)))
          << row_bytes << "-byte rows, byte " << a;
      EXPECT_EQ(tma_byte_offset(SwizzleMode::b64, row_bytes, row, byte),
                (kit::Swizzle<2, 4, 3>{}(a)))
          << row_bytes << "-byte rows, byte " << a;
      EXPECT_EQ(tma_byte_offset(SwizzleMode::b128, row_bytes, row, byte),
                (kit::Swizzle<3, 4, 3>{}(a)))
          << row_bytes << "-byte rows, byte " << a;
      if (HasFailure()) {
        return;
      }
    }
  }
}

TEST(Modes, ChunkReadsOfEveryMode) {
  using lesson11::Config;
  using lesson11::testing::model_wavefronts_per_request;
  // The ideal of a 16-byte request, from the model.
  const double ideal =
      lesson11::testing::copy_trace(Config::b32, lesson11::kBoxRows, lesson11::kBox32Cols)
          .ideal()
          .load_wavefronts_per_request();
  EXPECT_EQ(model_wavefronts_per_request(Config::b32), ideal);
  EXPECT_EQ(model_wavefronts_per_request(Config::b64), ideal);
  EXPECT_GT(model_wavefronts_per_request(Config::none32x8), ideal);
  EXPECT_GT(model_wavefronts_per_request(Config::none32x16),
            model_wavefronts_per_request(Config::none32x8));
  EXPECT_GT(model_wavefronts_per_request(Config::none32x32),
            model_wavefronts_per_request(Config::none32x16));
}

TEST(Modes, FloatColumnUnderEverySwizzle) {
  using lesson11::float_column_read;
  for (int col = 0; col < lesson11::kBox32Cols; ++col) {
    const int w32 = kit::wavefronts(
        float_column_read("32B", TmaLayout<SwizzleMode::b32, lesson11::kBox32Cols>{}, col).access);
    const int w64 = kit::wavefronts(
        float_column_read("64B", TmaLayout<SwizzleMode::b64, lesson11::kBox64Cols>{}, col).access);
    const int w128 =
        kit::wavefronts(float_column_read("128B", lesson11::testing::Tma128Layout{}, col).access);
    // A swizzle moves whole 16-byte chunks, among the chunk positions of 128 bytes: the box's
    // rows spread evenly over the banks those positions give a float.
    const int rows_per_bank =
        lesson11::kBoxRows / (kit::kNumBanks * kit::kBankBytes / lesson11::kChunkBytes);
    EXPECT_EQ(w32, rows_per_bank) << "float " << col;
    EXPECT_EQ(w64, rows_per_bank) << "float " << col;
    EXPECT_EQ(w128, rows_per_bank) << "float " << col;
  }
}

} // namespace
