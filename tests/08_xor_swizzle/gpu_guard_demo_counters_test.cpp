// The demos on the GPU: the counters read exactly what the bank model says for the column
// reads of the two swizzled tiles and the padded one, and for the pair store.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "kit/trace.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, ColumnsEqualTheModel) {
  for (const kit::Pattern& p :
       {lesson08::row_read_demo(), lesson08::chunk_column_demo(0), lesson08::chunk_column_demo(9),
        lesson08::pair_column_demo(0), lesson08::pair_column_demo(31),
        lesson08::pitch34_column_demo(0), lesson08::pitch34_column_demo(5)}) {
    expect_pattern(p);
  }
}

TEST_F(DemoCounters, PairStoreEqualsTheModel) {
  const kit::Pattern store = lesson08::chunk_pair_store_demo();
  kit::Trace wide;
  wide.add(store.op, store.access, 1, store.name);
  KIT_REQUIRE_VERIFIED_RULES(wide);
  expect_pattern(store);
}

} // namespace
