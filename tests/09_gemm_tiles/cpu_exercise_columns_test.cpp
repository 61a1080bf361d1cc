// Parts 2 and 3 on the CPU: the bank model over every fragment read of your assignments gives
// the width's ideal, and each whole kernel costs what its conflict-free twin costs; each with
// an assignment that computes the whole tile (one that loses a column scores nothing, however
// cheap).
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "gemm_trace.hpp"
#include "kit/bank_model.hpp"
#include "predictions.hpp"

namespace {

using namespace lesson09;

constexpr std::array<std::array<int, 3>, 3> kShapes = {
    {{128, 128, 8}, {1000, 777, 301}, {4096, 4096, 4096}}};

/// Why the kernel with assignment `Columns` would lose columns of C, or nothing: a column
/// outside the tile, or one that two (t, j) own (so another column has no owner).
template <class Columns>
std::optional<std::string> column_loss(const std::string& name) {
  std::vector<std::optional<std::pair<int, int>>> owner(kTileN);
  for (int t = 0; t < kThreadsX; ++t) {
    for (int j = 0; j < kFragN; ++j) {
      const int col = Columns::col(t, j);
      const std::string here = name + "::col(" + std::to_string(t) + ", " + std::to_string(j) +
                               ") = " + std::to_string(col);
      if (col < 0 || col >= kTileN) {
        return here + " lies outside the tile's " + std::to_string(kTileN) + " columns";
      }
      if (owner[col]) {
        return here + " = col(" + std::to_string(owner[col]->first) + ", " +
               std::to_string(owner[col]->second) + "): column " + std::to_string(col) +
               " is owned twice, so some column of C is never computed";
      }
      owner[col] = std::pair{t, j};
    }
  }
  return std::nullopt;
}

TEST(FragmentColumns, EveryReadAtItsIdeal) {
  const auto loss = column_loss<FragmentColumns>("FragmentColumns");
  ASSERT_FALSE(loss.has_value()) << *loss;
  // The starter's reads are Part 1's patterns: their counts show once your predictions are
  // written.
  const bool shown = lesson09::testing::predictions_written();
  for (int j = 0; j < kFragN; ++j) {
    const kit::BankReport r =
        kit::analyze(b_scalar_read_demo<FragmentColumns>("FragmentColumns", j).access);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.wavefronts == r.ideal)
        << "the read of element " << j << " costs "
        << kit::count_text(shown, r.wavefronts, "wavefronts") << " (ideal " << r.ideal
        << "). Lanes 0, 1, 2, 3 (thread columns 0-3) read columns " << FragmentColumns::col(0, j)
        << ", " << FragmentColumns::col(1, j) << ", " << FragmentColumns::col(2, j) << ", "
        << FragmentColumns::col(3, j) << ": banks " << r.lanes[0].bank << ", " << r.lanes[1].bank
        << ", " << r.lanes[2].bank << ", " << r.lanes[3].bank << ". "
        << kit::drawing_text(shown,
                             "Draw it: `bank-map --type float --index '...'` with col(l % 16, " +
                                 std::to_string(j) + ").")
        << kit::counts_note(shown);
    if (r.wavefronts != r.ideal) {
      return; // every element tells the same story
    }
  }
}

TEST(FragmentColumns, KernelAsCheapAsTheTwin) {
  const auto loss = column_loss<FragmentColumns>("FragmentColumns");
  ASSERT_FALSE(loss.has_value()) << *loss;
  const bool shown = lesson09::testing::predictions_written();
  for (const auto& [m, n, k] : kShapes) {
    const kit::SharedCounts mine = lesson09::testing::exercise_trace(m, n, k).expected();
    const kit::SharedCounts twin = lesson09::testing::strided_scalar_trace(m, n, k).expected();
    EXPECT_EQ(mine.load_requests, twin.load_requests);
    EXPECT_TRUE(mine.load_wavefronts == twin.load_wavefronts)
        << m << " x " << n << " x " << k << ": the model says gemm_exercise's loads take "
        << kit::count_text(shown, mine.load_wavefronts_per_request(), "wavefronts")
        << " per request, its twin's "
        << kit::count_text(shown, twin.load_wavefronts_per_request(), "")
        << kit::counts_note(shown);
  }
}

TEST(Float4Columns, EveryReadAtItsIdeal) {
  const auto loss = column_loss<Float4Columns>("Float4Columns");
  ASSERT_FALSE(loss.has_value()) << *loss;
  ASSERT_TRUE(float4_fragments<Float4Columns>())
      << "a float4 load at col(t, 4 q) must read elements 4 q ... 4 q + 3 (guard test "
         "Float4Columns.Float4ReadsTheFragment says where it breaks)";
  const bool shown = lesson09::testing::predictions_written();
  for (int q = 0; q < kFragN / 4; ++q) {
    const kit::BankReport r =
        kit::analyze(b_float4_read_demo<Float4Columns>("Float4Columns", q).access);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.wavefronts == r.ideal)
        << "the float4 read q = " << q << " costs "
        << kit::count_text(shown, r.wavefronts, "wavefronts") << " (ideal "
        << kit::count_text(shown, r.ideal, "") << "). Lanes 0-7 (one phase) start at columns "
        << Float4Columns::col(0, 4 * q) << ", " << Float4Columns::col(1, 4 * q) << ", "
        << Float4Columns::col(2, 4 * q) << ", ...: banks " << r.lanes[0].bank << ", "
        << r.lanes[1].bank << ", " << r.lanes[2].bank << ", ... "
        << kit::drawing_text(shown, "Draw it: `bank-map --type float4 --index '...'` with the "
                                    "float4 index col(l % 16, " +
                                        std::to_string(4 * q) + ") / 4.")
        << kit::counts_note(shown);
  }
}

TEST(Float4Columns, KernelAsCheapAsTheTwin) {
  const auto loss = column_loss<Float4Columns>("Float4Columns");
  ASSERT_FALSE(loss.has_value()) << *loss;
  ASSERT_TRUE(float4_fragments<Float4Columns>()) << "see Float4Columns.EveryReadAtItsIdeal";
  const bool shown = lesson09::testing::predictions_written();
  for (const auto& [m, n, k] : kShapes) {
    const kit::SharedCounts mine = lesson09::testing::exercise_float4_trace(m, n, k).expected();
    const kit::SharedCounts twin = lesson09::testing::strided_by_four_trace(m, n, k).expected();
    EXPECT_EQ(mine.load_requests, twin.load_requests);
    EXPECT_TRUE(mine.load_wavefronts == twin.load_wavefronts)
        << m << " x " << n << " x " << k << ": the model says gemm_exercise_float4's loads take "
        << kit::count_text(shown, mine.load_wavefronts_per_request(), "wavefronts")
        << " per request, its twin's "
        << kit::count_text(shown, twin.load_wavefronts_per_request(), "")
        << kit::counts_note(shown);
  }
}

} // namespace
