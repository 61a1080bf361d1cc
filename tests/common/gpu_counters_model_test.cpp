// The bank model held against the hardware: every pattern runs through the kit's pattern
// kernel under the profiler, and the counters must equal the model, request for request and
// wavefront for wavefront. Patterns: every measured example (loads and stores), all five
// widths over a range of strides, broadcast and the lane^1 cases, partial warps and masked
// lanes, and draws of kit::random_pattern (the seed is printed; KIT_SEED=<seed> replays it).
#include <gtest/gtest.h>

#include <vector>

#include "hardware_examples.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/pattern_draws.hpp"
#include "kit/testing.hpp"

namespace {

constexpr int kBlocks = 2;
constexpr int kRounds = 1;

class ModelAgainstCounters : public kit::testing::CounterTest {
protected:
  // Measures one pattern and holds the counters to the model.
  void check(const kit::Pattern& p) {
    const kit::PatternBench bench(p);
    const kit::Trace trace = bench.trace(kBlocks, kRounds);
    if (p.access.width > kit::kBankBytes && !kit::wide_rules_verified()) {
      ++unverified_; // the 8- and 16-byte rules were measured on sm_90 only
      return;
    }
    const kit::SharedCounters c =
        expect_counts(p.name, trace, [&] { bench.run(kBlocks, kRounds); });
    // The kernel issues exactly the instructions it means to.
    const std::uint64_t fill = p.op == kit::SharedOp::load ? trace.expected().store_requests : 0;
    const std::uint64_t pattern = bench.pattern_requests(kBlocks, kRounds);
    if (p.op == kit::SharedOp::load) {
      EXPECT_EQ(c.sass.load_requests, pattern) << p.name;
      EXPECT_EQ(c.sass.store_requests, fill) << p.name;
    } else {
      EXPECT_EQ(c.sass.store_requests, pattern) << p.name;
      EXPECT_EQ(c.sass.load_requests, 0u) << p.name;
    }
    ++checked_;
  }
  // Ends a test: a test that could check nothing is skipped, with the reason.
  void finish(const char* what) {
    std::printf("[kit-patterns] %s: %d checked\n", what, checked_);
    if (unverified_ > 0) {
      std::printf("[kit-patterns] %s: %d not checked (8/16-byte rules unverified on %s)\n", what,
                  unverified_, kit::gpu_status().arch().c_str());
    }
    if (checked_ == 0 && unverified_ > 0) {
      GTEST_SKIP() << *kit::testing::wide_rules_refusal();
    }
  }
  int checked_ = 0;
  int unverified_ = 0;
};

kit::Pattern named(std::string name, const kit::WarpAccess& a, kit::SharedOp op) {
  kit::Pattern p;
  p.name = std::move(name) + (op == kit::SharedOp::store ? " (store)" : "");
  p.access = a;
  p.op = op;
  return p;
}

const kit::SharedOp kOps[] = {kit::SharedOp::load, kit::SharedOp::store};

TEST_F(ModelAgainstCounters, MeasuredExamples) {
  for (const auto& ex : kit::examples::measured_examples()) {
    check(named(ex.name, ex.access, ex.op));
    if (ex.op == kit::SharedOp::load) {
      check(named(ex.name, ex.access, kit::SharedOp::store)); // the same lanes, stored
    }
  }
  finish("measured examples");
}

TEST_F(ModelAgainstCounters, EveryWidthOverStrides) {
  for (kit::SharedOp op : kOps) {
    for (int width : {1, 2, 4, 8, 16}) {
      for (unsigned stride : {0u, 1u, 2u, 3u, 4u, 5u, 8u, 16u, 17u, 32u, 33u, 64u, 128u}) {
        if (static_cast<std::size_t>(stride) * 31 * width > 16 * 1024) {
          continue;
        }
        check(kit::strided_pattern(width, stride, op));
      }
    }
  }
  finish("widths x strides");
}

TEST_F(ModelAgainstCounters, PartialWarpsAndMaskedLanes) {
  const unsigned masks[] = {0x0000ffffu, 0xffff0000u, 0x000000ffu, 0x0f0f0f0fu, 0x55555555u,
                            0xaaaaaaaau, 0x80000001u, 0x00000001u, 0x33333333u, 0x7fffffffu};
  for (kit::SharedOp op : kOps) {
    for (unsigned mask : masks) {
      for (int width : {4, 8, 16}) {
        for (unsigned stride : {0u, 1u, 2u, 32u / static_cast<unsigned>(width)}) {
          kit::WarpAccess a = kit::strided_access(width, stride, 0, mask);
          char name[96];
          std::snprintf(name, sizeof name, "width %d stride %u mask %08x", width, stride, mask);
          check(named(name, a, op));
        }
      }
    }
  }
  finish("masked lanes");
}

TEST_F(ModelAgainstCounters, LaneXorOneCases) {
  for (kit::SharedOp op : kOps) {
    for (int width : {8, 16}) {
      // Pairs (l, l^1) on one address, pairs that straddle phases, and near-pairs.
      kit::WarpAccess pairs = kit::strided_access(width, 1);
      kit::WarpAccess pairs_strided = kit::strided_access(width, 1);
      kit::WarpAccess almost = kit::strided_access(width, 1);
      kit::WarpAccess quads = kit::strided_access(width, 1);
      for (int lane = 0; lane < 32; ++lane) {
        pairs.address[lane] = static_cast<unsigned>((lane / 2) * width);
        pairs_strided.address[lane] = static_cast<unsigned>((lane / 2) * 128);
        almost.address[lane] = static_cast<unsigned>((lane / 2) * width);
        quads.address[lane] = static_cast<unsigned>((lane / 4) * width);
      }
      almost.address[31] = 31u * width; // one pair broken
      kit::WarpAccess two = kit::strided_access(width, 0);
      for (int lane = 16; lane < 32; ++lane) {
        two.address[lane] = 128; // two addresses, one per half-warp
      }
      check(named("two addresses by half-warp, width " + std::to_string(width), two, op));
      for (unsigned mask : {0x0f0f0f0fu, 0x33333333u, 0x00ff00ffu, 0x7u}) {
        kit::WarpAccess p = pairs;
        p.mask = mask;
        char name[64];
        std::snprintf(name, sizeof name, "pairs, mask %08x, width %d", mask, width);
        check(named(name, p, op));
      }
      check(named("pairs on one address, width " + std::to_string(width), pairs, op));
      check(named("pairs 128 B apart, width " + std::to_string(width), pairs_strided, op));
      check(named("pairs but one, width " + std::to_string(width), almost, op));
      check(named("quads on one address, width " + std::to_string(width), quads, op));
      // Pairs with one partner masked off.
      kit::WarpAccess lone = pairs;
      lone.mask = 0xfffffffeu;
      check(named("pairs, lane 0 masked, width " + std::to_string(width), lone, op));
      kit::WarpAccess half = pairs;
      half.mask = 0x0000ffffu;
      check(named("pairs, first half-warp, width " + std::to_string(width), half, op));
    }
  }
  finish("lane^1 cases");
}

TEST_F(ModelAgainstCounters, RandomOffsetSets) {
  // Draws of kit::random_pattern (5 in 8 of them 8- or 16-byte, most masked), measured
  // CounterSession::kMaxKernels to a profiler pass (kit::measure_patterns);
  // `bank-probe --random N --seed S` measures tens of thousands the same way.
  if (!kit::wide_rules_verified()) {
    GTEST_SKIP() << *kit::testing::wide_rules_refusal();
  }
  const std::uint64_t seed = kit::testing::fresh_seed();
  constexpr int kDraws = 4 * kit::CounterSession::kMaxKernels;
  std::vector<kit::Pattern> drawn;
  for (int i = 0; i < kDraws; ++i) {
    drawn.push_back(kit::random_pattern(seed, static_cast<std::uint64_t>(i)));
  }
  const std::vector<kit::PatternReading> read = kit::measure_patterns(session(), drawn);
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const kit::Pattern& p = drawn[i];
    EXPECT_EQ(read[i].wavefronts, static_cast<double>(kit::wavefronts(p.access, p.op)))
        << p.name << " (" << (p.op == kit::SharedOp::load ? "load" : "store") << ", width "
        << p.access.width << ", mask " << std::hex << p.access.mask << std::dec
        << "): counters against the model, per request; replay: KIT_SEED=" << seed
        << " or bank-probe --random 1 --seed " << seed << " --first " << i;
    ++checked_;
  }
  std::printf("[kit-patterns] random draws from seed %llu\n",
              static_cast<unsigned long long>(seed));
  finish("random offset sets");
}

TEST_F(ModelAgainstCounters, TraceReplayIssuesItsTrace) {
  // A trace of several widths and both ops, with copies shifted by whole 128-byte rows: the
  // replay runs each distinct instruction once per round, in proportion to its count, and the
  // counters read exactly the replay's trace.
  kit::Trace t;
  t.add(kit::SharedOp::load, kit::strided_access(4, 1), 2, "float stride 1");
  t.add(kit::SharedOp::load, kit::strided_access(4, 1, 128), 2, "shifted by a row");
  t.add(kit::SharedOp::load, kit::strided_access(4, 1, 4096), 4, "shifted by 32 rows");
  t.add(kit::SharedOp::load, kit::strided_access(4, 32), 2, "float stride 32");
  t.add(kit::SharedOp::load, kit::strided_access(16, 1, 0, 0x00ff00ffu), 2, "float4 masked");
  t.add(kit::SharedOp::store, kit::strided_access(8, 2), 6, "double stride 2");
  t.add(kit::SharedOp::store, kit::strided_access(2, 1), 2, "half stride 1");
  KIT_REQUIRE_VERIFIED_RULES(t);
  const kit::TraceReplay replay("mixed", t);
  EXPECT_EQ(replay.instructions(), 5u) << "shifts by whole rows are one instruction";
  const kit::Trace issued = replay.trace(kBlocks);
  expect_counts("trace replay", issued, [&] { replay.run(kBlocks); });
  // Every count is a multiple of 2: each distinct instruction runs count / 2 rounds, so the
  // replay (its fill aside) issues the trace's requests and wavefronts, each times per_unit.
  const std::uint64_t per_unit = static_cast<std::uint64_t>(kBlocks) *
                                 (replay.block_threads() / kit::kWarpSize) * kit::kPatternUnroll /
                                 2;
  kit::Trace replayed;
  for (const kit::TraceEntry& e : issued.entries()) {
    if (e.what != "fill") {
      replayed.add(e.op, e.access, e.repeat, e.what);
    }
  }
  const kit::SharedCounts want = t.expected();
  const kit::SharedCounts got = replayed.expected();
  EXPECT_EQ(got.load_requests, want.load_requests * per_unit);
  EXPECT_EQ(got.load_wavefronts, want.load_wavefronts * per_unit);
  EXPECT_EQ(got.store_requests, want.store_requests * per_unit);
  EXPECT_EQ(got.store_wavefronts, want.store_wavefronts * per_unit);
  ++checked_;
  finish("trace replay");
}

} // namespace
