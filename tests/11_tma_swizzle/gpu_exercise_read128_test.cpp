// Part 2 on the GPU: tiles copied by the TMA in the 128B mode and read through your
// Read128Layout come back exactly, for shapes that are not multiples of the box; and
// score_tiles, which reads them the same way, matches the CPU on random data.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "score_reference.hpp"
#include "tma_testing.hpp"

namespace {

using lesson11::Config;

TEST(Read128, EveryElementComesBackInPlace) {
  LESSON11_REQUIRE_TMA();
  std::vector<std::pair<int, int>> shapes = {{32, 32}, {1, 4}, {31, 36}, {33, 100}, {100, 64}};
  if (!kit::small_mode()) {
    shapes.push_back({1000, 776});
  }
  for (const auto& [n_rows, n_cols] : shapes) {
    lesson11::testing::expect_exact_copy(Config::b128, n_rows, n_cols, lesson11::kBox128Cols);
    if (HasFailure()) {
      return;
    }
  }
}

TEST(Read128, ScoreTilesMatchesTheCpu) {
  LESSON11_REQUIRE_TMA();
  lesson11::testing::expect_scores_match(Config::b128);
}

} // namespace
