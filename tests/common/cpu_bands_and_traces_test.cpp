// The slowdown band and traces: the rules every slowdown and counter test relies on.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "kit/at_ideal.hpp"
#include "kit/bands.hpp"
#include "kit/trace.hpp"

namespace {

TEST(Bands, UnitRatioHasTheTightBand) {
  const kit::Band b = kit::slowdown_band(1.0);
  EXPECT_DOUBLE_EQ(b.low, kit::kUnitBandLow);
  EXPECT_DOUBLE_EQ(b.high, kit::kUnitBandHigh);
  EXPECT_TRUE(kit::in_band(1.0, 1.0));
  EXPECT_FALSE(kit::in_band(1.2, 1.0));
}

TEST(Bands, ConflictRatiosHaveTheProportionalBand) {
  for (double r : {2.0, 4.0, 16.0, 32.0}) {
    const kit::Band b = kit::slowdown_band(r);
    EXPECT_DOUBLE_EQ(b.low, kit::kBandLowFactor * r);
    EXPECT_DOUBLE_EQ(b.high, kit::kBandHighFactor * r);
    EXPECT_TRUE(kit::in_band(0.95 * r, r));
    EXPECT_FALSE(kit::in_band(1.0, r));
  }
}

TEST(Bands, SmallRatiosNeverPassAsNoChange) {
  EXPECT_FALSE(kit::in_band(1.0, 1.25));
  EXPECT_TRUE(kit::in_band(1.2, 1.25));
  EXPECT_FALSE(kit::in_band(1.0, 0.5));
  EXPECT_TRUE(kit::in_band(0.5, 0.5));
}

TEST(Trace, SumsRequestsAndWavefrontsPerOp) {
  kit::Trace t;
  t.add(kit::SharedOp::load, kit::strided_access(4, 32), 10, "column");
  t.add(kit::SharedOp::store, kit::strided_access(4, 1), 5, "row");
  const kit::SharedCounts c = t.expected();
  EXPECT_EQ(c.load_requests, 10u);
  EXPECT_EQ(c.load_wavefronts, 320u);
  EXPECT_EQ(c.store_requests, 5u);
  EXPECT_EQ(c.store_wavefronts, 5u);
  EXPECT_DOUBLE_EQ(c.load_wavefronts_per_request(), 32.0);
}

TEST(Trace, IdealKeepsRequestsAndCostsEachAtItsWidthsIdeal) {
  kit::Trace t;
  t.add(kit::SharedOp::load, kit::strided_access(4, 32), 10, "column");
  t.add(kit::SharedOp::load, kit::strided_access(8, 2), 3, "double stride 2");
  t.add(kit::SharedOp::store, kit::strided_access(4, 2), 5, "stride 2 store");
  const kit::SharedCounts c = t.ideal();
  EXPECT_EQ(c.load_requests, 13u);
  EXPECT_EQ(c.load_wavefronts, 10u * 1 + 3u * 2);
  EXPECT_EQ(c.store_requests, 5u);
  EXPECT_EQ(c.store_wavefronts, 5u);
}

TEST(Trace, ModelRatioComparesAllWavefronts) {
  kit::Trace a, b;
  a.add(kit::SharedOp::load, kit::strided_access(4, 2), 10, "stride 2");
  a.add(kit::SharedOp::store, kit::strided_access(4, 1), 4, "stride 1 store");
  b.add(kit::SharedOp::load, kit::strided_access(4, 1), 10, "stride 1");
  b.add(kit::SharedOp::store, kit::strided_access(4, 1), 4, "stride 1 store");
  EXPECT_DOUBLE_EQ(kit::model_ratio(a, b), (10.0 * 2 + 4) / (10 + 4));
  EXPECT_DOUBLE_EQ(kit::model_ratio(a, kit::Trace{}), 0.0);
}

TEST(Trace, LaneFunctionsMaskInactiveLanes) {
  kit::Trace t;
  t.add(
      kit::SharedOp::load, 4,
      [](int lane) -> kit::LaneAddress {
        return lane < 8 ? kit::LaneAddress(lane * 128u) : std::nullopt;
      },
      1, "eight lanes, one bank");
  ASSERT_EQ(t.entries().size(), 1u);
  EXPECT_EQ(t.entries()[0].access.mask, 0xffu);
  EXPECT_EQ(t.expected().load_wavefronts, 8u);
  // An instruction no lane executes is never issued.
  t.add(kit::SharedOp::load, 4, [](int) -> kit::LaneAddress { return std::nullopt; });
  EXPECT_EQ(t.entries().size(), 1u);
}

TEST(Trace, CompactingMergesLikeEntriesAndKeepsTheCounts) {
  kit::Trace t;
  for (int block = 0; block < 5; ++block) {
    t.add(kit::SharedOp::load, kit::strided_access(4, 32), 2, "column");
    t.add(kit::SharedOp::store, kit::strided_access(4, 1), 1, "row");
  }
  t.add(kit::SharedOp::load, kit::strided_access(4, 32, 0, 0xffu), 1, "column"); // other mask
  const kit::Trace c = t.compacted();
  EXPECT_EQ(c.entries().size(), 3u);
  EXPECT_EQ(c.expected(), t.expected());
}

TEST(Trace, InvalidInstructionsAreReported) {
  kit::Trace t;
  kit::WarpAccess a = kit::strided_access(8, 1);
  a.address[3] = 12;
  t.add(kit::SharedOp::load, a, 1, "misaligned");
  EXPECT_THROW(t.expected(), std::invalid_argument);
}

TEST(Trace, FirstOverIdealNamesOneInstructionByItsLabel) {
  kit::Trace t;
  t.add(kit::SharedOp::load, kit::strided_access(4, 1), 3, "row read");
  EXPECT_FALSE(kit::first_over_ideal(t).has_value());
  EXPECT_TRUE(kit::at_ideal(t));
  t.add(kit::SharedOp::load, kit::strided_access(4, 32), 2, "column read");
  t.add(kit::SharedOp::store, kit::strided_access(4, 2), 1, "pair store");
  const std::optional<kit::OverIdeal> over = kit::first_over_ideal(t);
  ASSERT_TRUE(over.has_value());
  EXPECT_EQ(over->what, "column read"); // the first one, not the last
  EXPECT_EQ(over->wavefronts, kit::wavefronts(kit::strided_access(4, 32)));
  EXPECT_EQ(over->ideal, 1);
  const ::testing::AssertionResult r = kit::at_ideal(t);
  EXPECT_FALSE(r);
  // The lanes that collide and how many more instructions are over their ideal (the pair
  // store), never what it costs (a count may be a prediction's answer).
  EXPECT_EQ(over->more, 1);
  EXPECT_STREQ(r.message(), "the column read (4 B load) costs more wavefronts per request than its "
                            "ideal: bank 0 is asked for different words in one phase: word 0 "
                            "(lane 0), word 32 (lane 1), word 64 (lane 2), word 96 (lane 3) and "
                            "more (and 1 more instruction over their ideal)");
}

TEST(Trace, FirstOverIdealNamesAnInvalidInstruction) {
  kit::WarpAccess a = kit::strided_access(16, 1);
  a.address[3] += 4; // misaligned 16-byte access
  kit::Trace t;
  t.add(kit::SharedOp::load, a, 1, "wide read");
  const std::optional<kit::OverIdeal> over = kit::first_over_ideal(t);
  ASSERT_TRUE(over.has_value());
  EXPECT_FALSE(over->error.empty());
  EXPECT_NE(over->describe().find("the wide read (16 B load) is not a valid request"),
            std::string::npos)
      << over->describe();
}

TEST(Trace, CollidingLanesNamesTheBankTheWordsAndTheirLanes) {
  // float stride 2: lanes l and l + 16 ask bank (2 l) % 32 for words 2 l and 2 l + 32.
  const std::string two = kit::colliding_lanes(kit::analyze(kit::strided_access(4, 2)));
  EXPECT_EQ(two, "bank 0 is asked for different words in one phase: word 0 (lane 0), word 32 "
                 "(lane 16)");
  // Lanes 0 and 1 reading one word share it; lane 2 reads another word of the same bank.
  kit::WarpAccess a = kit::strided_access(4, 0, 0, 0x7u);
  a.address[2] = 128;
  EXPECT_EQ(kit::colliding_lanes(kit::analyze(a)),
            "bank 0 is asked for different words in one phase: word 0 (lanes 0, 1), word 32 "
            "(lane 2)");
  // Lanes 0 and 8 of a 16-byte load on one bank group: two quarters, one wavefront each, that
  // could have shared one.
  kit::WarpAccess q = kit::strided_access(16, 0, 0, 0x101u);
  q.address[8] = 128;
  EXPECT_EQ(kit::colliding_lanes(kit::analyze(q)),
            "bank 0 is asked for different words by lanes whose phases could share a wavefront: "
            "word 0 (lane 0), word 32 (lane 8)");
  EXPECT_EQ(kit::colliding_lanes(kit::analyze(kit::strided_access(4, 1))), "");
}

} // namespace
