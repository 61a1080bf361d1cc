// transpose_half on the GPU: the counters equal the trace built from the tile layout and the
// kernel's geometry, whatever padding you pick (the starter's too), ragged edges included.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "half_check.hpp"
#include "half_trace.hpp"

namespace {

class HalfCounters : public lesson06::testing::TransposeCounterTest {};

TEST_F(HalfCounters, EqualTheTrace) {
  expect_counts_of("transpose_half", lesson06::transpose_half,
                   {{256, 256}, {1, 1}, {31, 33}, {1000, 777}, {1, 100}, {100, 1}},
                   lesson06::testing::half_trace);
}

} // namespace
