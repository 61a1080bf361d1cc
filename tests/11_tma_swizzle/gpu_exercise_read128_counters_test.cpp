// Part 2 on the GPU, counters: copy_tiles in the 128B mode through your Read128Layout reads
// every chunk at the ideal of a 16-byte request.
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "modes_trace.hpp"
#include "tma_testing.hpp"

namespace {

class Read128Counters : public kit::testing::CounterTest {};

TEST_F(Read128Counters, ChunkReadsAtTheIdeal) {
  LESSON11_REQUIRE_TMA();
  constexpr int kRows = 32 * 24 + 5, kCols = 200;
  const kit::Trace trace = lesson11::testing::copy_trace(lesson11::Config::b128, kRows, kCols);
  KIT_REQUIRE_VERIFIED_RULES(trace);
  kit::DeviceBuffer<float> in(kRows * kCols), out(kRows * kCols);
  in.fill_bytes(0);
  expect_ideal(
      "copy_tiles, 128B", trace,
      [&] { lesson11::copy_tiles(lesson11::Config::b128, in.get(), out.get(), kRows, kCols); },
      "the 16-byte chunk reads", "(none: the TMA writes the tile)");
  EXPECT_FALSE(lesson11::take_wait_failure());
}

} // namespace
