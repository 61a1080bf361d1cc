// transpose_half on the GPU: the counters equal the trace built from half_slot and the tile
// geometry, whatever padding you pick (the starter's 16-way column read included), ragged
// edges included.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "half_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class HalfCounters : public kit::testing::CounterTest {};

TEST_F(HalfCounters, EqualTheTrace) {
  for (const auto& [rows, cols] : {std::pair{256, 256}, std::pair{1, 1}, std::pair{31, 33},
                                   std::pair{1000, 777}, std::pair{1, 100}, std::pair{100, 1}}) {
    const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    kit::DeviceBuffer<__half> in(n), out(n);
    in.fill_bytes(0);
    expect_counts("transpose_half " + std::to_string(rows) + " x " + std::to_string(cols),
                  lesson06::testing::half_trace(rows, cols),
                  [&] { lesson06::transpose_half(in.get(), out.get(), rows, cols, nullptr); });
  }
}

} // namespace
