// Part 2 on the CPU: your Read128Layout finds every element where the TMA's 128B mode puts
// it, and reading chunk k of every row through it costs the ideal of a 16-byte request, with a
// layout that reads every element of the box from a float of its own (one that does not scores
// nothing, however cheap).
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/layout.hpp"
#include "predictions.hpp"
#include "tma_rule.hpp"

namespace {

using lesson11::kBox128Cols;
using lesson11::kBoxRows;
using lesson11::kChunkFloats;

TEST(Read128Layout, FindsEveryElementWhereTheTmaPutIt) {
  static_assert(lesson11::holds_the_128b_box<lesson11::Read128Layout>());
  constexpr lesson11::Read128Layout yours{};
  constexpr lesson11::testing::Tma128Layout tma{};
  for (int r = 0; r < kBoxRows; ++r) {
    for (int c = 0; c < kBox128Cols; ++c) {
      const int got = yours(r, c), want = tma(r, c);
      if (got == want) {
        continue;
      }
      int found_r = -1, found_c = -1; // the element the TMA put at offset `got`
      for (int rr = 0; rr < kBoxRows; ++rr) {
        for (int cc = 0; cc < kBox128Cols; ++cc) {
          if (tma(rr, cc) == got) {
            found_r = rr;
            found_c = cc;
          }
        }
      }
      // The message says what the layout reads, never where the element is: that is the answer.
      FAIL() << "element (" << r << ", " << c << ") — chunk " << c / kChunkFloats << " of row " << r
             << " — is not where your layout reads it: it reads float offset " << got
             << (found_r < 0 ? std::string(", outside the box")
                             : ", where the TMA put element (" + std::to_string(found_r) + ", " +
                                   std::to_string(found_c) + "): chunk " +
                                   std::to_string(found_c / kChunkFloats) + " of row " +
                                   std::to_string(found_r))
             << ". Which address bits choose the chunk, and which bits does the 128B mode XOR "
                "into them?";
    }
  }
}

TEST(Read128Layout, ChunkReadsCostTheIdeal) {
  constexpr int kBoxFloats = kBoxRows * kBox128Cols;
  const auto clash =
      kit::first_collision(lesson11::Read128Layout{}, kBoxRows, kBox128Cols, kBoxFloats);
  ASSERT_FALSE(clash) << "Read128Layout: " << kit::describe(*clash, kBoxFloats, "the box")
                      << ": copy_tiles and score_tiles would read wrong data (every element "
                         "of the box needs a float of its own)";
  kit::Trace reads; // chunk k of every row, 16 bytes a lane
  for (int k = 0; k < kBox128Cols / kChunkFloats; ++k) {
    const kit::WarpAccess a =
        lesson11::chunk_column_read("128B", lesson11::Read128Layout{}, k).access;
    ASSERT_TRUE(kit::analyze(a).ok());
    reads.add(kit::SharedOp::load, a, 1, "read of chunk " + std::to_string(k) + " of every row");
  }
  ASSERT_TRUE(kit::at_ideal(reads))
      << "\n"
      << kit::drawing_text(lesson11::testing::predictions_written(),
                           kit::print_layout(lesson11::Read128Layout{}, 8) +
                               "Draw it with bank-map.");
}

} // namespace
