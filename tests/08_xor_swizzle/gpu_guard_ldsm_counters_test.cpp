// ldmatrix on the GPU: the ldmatrix counters equal the model for the demos, for the address
// patterns behind the model's rule (lane pairs on one row, a broadcast, repeated matrices),
// and for the fragment kernels of the plain and the padded tile.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "ldsm_counters.hpp"

namespace {

using lesson08::testing::LdsmCounterTest;

class LdsmCounters : public LdsmCounterTest {};

TEST_F(LdsmCounters, DemosEqualTheModel) {
  for (const kit::LdsmPattern& p :
       {lesson08::plain_ldsm_demo(1), lesson08::plain_ldsm_demo(2), lesson08::plain_ldsm_demo(4),
        lesson08::plain_ldsm_demo(4, 3), lesson08::padded_ldsm_demo(1),
        lesson08::padded_ldsm_demo(4), lesson08::padded_ldsm_demo(4, 2)}) {
    expect_ldsm(p.name, lesson08::testing::bench_counts(p), [&] { lesson08::run_ldsm_pattern(p); });
  }
}

TEST_F(LdsmCounters, TheRuleEqualsTheModel) {
  for (int matrices : {1, 2, 4}) {
    for (const kit::LdsmPattern& p : {
             kit::ldsm_indexed_pattern(
                 "rows 16 bytes apart", [](int l) { return 16 * l; }, matrices),
             kit::ldsm_indexed_pattern(
                 "rows 64 bytes apart", [](int l) { return 64 * l; }, matrices),
             kit::ldsm_indexed_pattern(
                 "lanes l and l^1 on one row", [](int l) { return 16 * (l / 2); }, matrices),
             kit::ldsm_indexed_pattern(
                 "every lane on one row", [](int) { return 0; }, matrices),
             kit::ldsm_indexed_pattern(
                 "each half-warp on one row", [](int l) { return l < 16 ? 0 : 4096; }, matrices),
             kit::ldsm_indexed_pattern(
                 "the rows of matrix 0 in every matrix", [](int l) { return 16 * (l % 8); },
                 matrices),
             kit::ldsm_indexed_pattern(
                 "rows 32 bytes apart", [](int l) { return 32 * l; }, matrices),
         }) {
      expect_ldsm(p.name + " (x" + std::to_string(matrices) + ")",
                  lesson08::testing::bench_counts(p), [&] { lesson08::run_ldsm_pattern(p); });
    }
  }
}

TEST_F(LdsmCounters, PlainAndPaddedFragmentsEqualTheModel) {
  constexpr int kTiles = 132 * 4;
  kit::DeviceBuffer<__half> d_in(static_cast<std::size_t>(kTiles) * lesson08::kFragmentRows *
                                 lesson08::kFragmentCols);
  kit::DeviceBuffer<unsigned> d_out(static_cast<std::size_t>(kTiles) * lesson08::kFragmentSteps *
                                    4 * 32);
  d_in.fill_bytes(0);
  expect_ldsm("load_fragments_plain",
              lesson08::testing::fragment_counts<lesson08::FragmentRows>(kTiles),
              [&] { lesson08::load_fragments_plain(d_in.get(), d_out.get(), kTiles); });
  expect_ldsm("load_fragments_padded",
              lesson08::testing::fragment_counts<lesson08::FragmentPaddedTile>(kTiles),
              [&] { lesson08::load_fragments_padded(d_in.get(), d_out.get(), kTiles); });
}

} // namespace

namespace {

class FragmentStores : public kit::testing::CounterTest {};

// The shared-memory session on the same kernels: their 16-byte stores, exactly, and no load
// (the sass load metrics do not count ldmatrix).
TEST_F(FragmentStores, CountersEqualTheModel) {
  constexpr int kTiles = 132 * 4;
  KIT_REQUIRE_VERIFIED_RULES(
      lesson08::testing::fragment_store_trace<lesson08::FragmentTile>(kTiles));
  kit::DeviceBuffer<__half> d_in(static_cast<std::size_t>(kTiles) * lesson08::kFragmentRows *
                                 lesson08::kFragmentCols);
  kit::DeviceBuffer<unsigned> d_out(static_cast<std::size_t>(kTiles) * lesson08::kFragmentSteps *
                                    4 * 32);
  d_in.fill_bytes(0);
  expect_counts("load_fragments (stores)",
                lesson08::testing::fragment_store_trace<lesson08::FragmentTile>(kTiles),
                [&] { lesson08::load_fragments(d_in.get(), d_out.get(), kTiles); });
  expect_counts("load_fragments_plain (stores)",
                lesson08::testing::fragment_store_trace<lesson08::FragmentRows>(kTiles),
                [&] { lesson08::load_fragments_plain(d_in.get(), d_out.get(), kTiles); });
}

} // namespace
