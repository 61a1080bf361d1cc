// ldmatrix on the GPU: the ldmatrix counters equal the model for the demos, for the address
// patterns behind the model's rule (lane pairs on one row, a broadcast, repeated matrices),
// and for the fragment kernels of the plain and the padded tile. With LESSON08_LDSM_CSV=<file>
// set, the suite writes the demos' and the rule's rows there (docs/measurements/ldsm.csv on the
// reference GPU) after its last test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/testing.hpp"
#include "ldsm_counters.hpp"

namespace {

using lesson08::testing::LdsmCounterTest;

/// Per ldmatrix request, `n` over `requests` (0 without requests).
double per_ldsm_request(std::uint64_t n, std::uint64_t requests) {
  return requests ? static_cast<double>(n) / static_cast<double>(requests) : 0.0;
}

/// `what` as ldsm.csv names it: each ", " read "; " ("half tile[16][64]; ldmatrix.x1 k-step 0"),
/// so that the pattern column needs no quotes.
std::string ldsm_table_name(std::string what) {
  for (std::size_t at = what.find(", "); at != std::string::npos; at = what.find(", ", at)) {
    what.replace(at, 2, "; ");
  }
  return what;
}

class LdsmCounters : public LdsmCounterTest {
protected:
  /// Writes docs/measurements/ldsm.csv's table to $LESSON08_LDSM_CSV, the demos' rows then the
  /// rule's, when both tests measured theirs; fails, writing nothing, when only one did.
  static void TearDownTestSuite() {
    const auto path = kit::env("LESSON08_LDSM_CSV");
    if (!path) {
      return;
    }
    if (demo_rows_.empty() && rule_rows_.empty()) {
      std::printf("[kit-counters] %s not written: nothing was measured\n", path->c_str());
      return;
    }
    if (demo_rows_.empty() || rule_rows_.empty()) {
      ADD_FAILURE() << *path << " not written: run both LdsmCounters.DemosEqualTheModel and "
                    << "LdsmCounters.TheRuleEqualsTheModel";
      return;
    }
    kit::MeasurementTable table;
    table.command = "LESSON08_LDSM_CSV=docs/measurements/ldsm.csv "
                    "build/gpu-check/tests/solution/lesson08_solution_gpu "
                    "--gtest_filter='LdsmCounters.*'";
    table.notes = {"per ldmatrix request; counters: smsp__sass_inst_executed_op_ldsm (requests), "
                   "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm, "
                   "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm"};
    table.columns = "pattern,model_wavefronts,counter_wavefronts,bank_conflicts";
    table.rows = demo_rows_;
    table.rows.insert(table.rows.end(), rule_rows_.begin(), rule_rows_.end());
    EXPECT_TRUE(kit::write_measurement_csv(*path, table)) << "could not write " << *path;
    std::printf("[kit-counters] wrote %s\n", path->c_str());
  }

  /// expect_ldsm(), keeping the table's row for `what` in `rows`.
  void expect_ldsm_row(std::vector<std::string>& rows, const std::string& what,
                       const lesson08::testing::LdsmCounts& expected,
                       const std::function<void()>& launch) {
    const kit::LdsmCounters c = expect_ldsm(what, expected, launch);
    rows.push_back(kit::csv_field(ldsm_table_name(what)) + "," +
                   kit::fixed(per_ldsm_request(expected.wavefronts, expected.requests), 2) + "," +
                   kit::fixed(per_ldsm_request(c.wavefronts, c.requests), 2) + "," +
                   kit::fixed(per_ldsm_request(c.bank_conflicts, c.requests), 2));
  }

  inline static std::vector<std::string> demo_rows_; ///< DemosEqualTheModel's rows.
  inline static std::vector<std::string> rule_rows_; ///< TheRuleEqualsTheModel's rows.
};

TEST_F(LdsmCounters, DemosEqualTheModel) {
  demo_rows_.clear();
  for (const kit::LdsmPattern& p :
       {lesson08::plain_ldsm_demo(1), lesson08::plain_ldsm_demo(2), lesson08::plain_ldsm_demo(4),
        lesson08::plain_ldsm_demo(4, 3), lesson08::padded_ldsm_demo(1),
        lesson08::padded_ldsm_demo(4), lesson08::padded_ldsm_demo(4, 2)}) {
    expect_ldsm_row(demo_rows_, p.name, lesson08::testing::bench_counts(p),
                    [&] { lesson08::run_ldsm_pattern(p); });
  }
}

TEST_F(LdsmCounters, TheRuleEqualsTheModel) {
  rule_rows_.clear();
  for (int matrices : {1, 2, 4}) {
    for (const kit::LdsmPattern& p : {
             kit::ldsm_address_pattern(
                 "rows 16 bytes apart", [](int l) { return 16 * l; }, matrices),
             kit::ldsm_address_pattern(
                 "rows 64 bytes apart", [](int l) { return 64 * l; }, matrices),
             kit::ldsm_address_pattern(
                 "lanes l and l^1 on one row", [](int l) { return 16 * (l / 2); }, matrices),
             kit::ldsm_address_pattern(
                 "every lane on one row", [](int) { return 0; }, matrices),
             kit::ldsm_address_pattern(
                 "each half-warp on one row", [](int l) { return l < 16 ? 0 : 4096; }, matrices),
             kit::ldsm_address_pattern(
                 "the rows of matrix 0 in every matrix", [](int l) { return 16 * (l % 8); },
                 matrices),
             kit::ldsm_address_pattern(
                 "rows 32 bytes apart", [](int l) { return 32 * l; }, matrices),
         }) {
      expect_ldsm_row(rule_rows_, p.name + " (x" + std::to_string(matrices) + ")",
                      lesson08::testing::bench_counts(p), [&] { lesson08::run_ldsm_pattern(p); });
    }
  }
}

TEST_F(LdsmCounters, PlainAndPaddedFragmentsEqualTheModel) {
  lesson08::testing::FragmentBuffers b;
  constexpr int kTiles = lesson08::testing::FragmentBuffers::kTiles;
  expect_ldsm("load_fragments_plain",
              lesson08::testing::fragment_counts<lesson08::FragmentRows>(kTiles),
              [&] { lesson08::load_fragments_plain(b.in.get(), b.out.get(), kTiles); });
  expect_ldsm("load_fragments_padded",
              lesson08::testing::fragment_counts<lesson08::FragmentPaddedTile>(kTiles),
              [&] { lesson08::load_fragments_padded(b.in.get(), b.out.get(), kTiles); });
}

} // namespace

namespace {

class FragmentStores : public kit::testing::CounterTest {};

// The shared-memory session on the same kernels: their 16-byte stores, exactly, and no load
// (the sass load metrics do not count ldmatrix).
TEST_F(FragmentStores, CountersEqualTheModel) {
  constexpr int kTiles = lesson08::testing::FragmentBuffers::kTiles;
  KIT_REQUIRE_VERIFIED_RULES(
      lesson08::testing::fragment_store_trace<lesson08::FragmentTile>(kTiles));
  lesson08::testing::FragmentBuffers b;
  expect_counts("load_fragments (stores)",
                lesson08::testing::fragment_store_trace<lesson08::FragmentTile>(kTiles),
                [&] { lesson08::load_fragments(b.in.get(), b.out.get(), kTiles); });
  expect_counts("load_fragments_plain (stores)",
                lesson08::testing::fragment_store_trace<lesson08::FragmentRows>(kTiles),
                [&] { lesson08::load_fragments_plain(b.in.get(), b.out.get(), kTiles); });
}

} // namespace
