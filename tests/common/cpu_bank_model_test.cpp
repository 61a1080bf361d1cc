// The bank model against the counter readings taken on an H100, and its own invariants.
#include <gtest/gtest.h>

#include <numeric>

#include "hardware_examples.hpp"
#include "kit/bank_model.hpp"
#include "kit/trace.hpp"

namespace {

using kit::analyze;
using kit::strided_access;
using kit::WarpAccess;

// The model is constexpr: these are evaluated by the compiler.
static_assert(kit::wavefronts(strided_access(4, 1)) == 1);
static_assert(kit::wavefronts(strided_access(4, 32)) == 32);
static_assert(kit::analyze(strided_access(8, 0)).paired);
static_assert(kit::analyze(strided_access(16, 1)).ideal == 4);

TEST(BankModel, ReproducesEveryMeasuredExample) {
  for (const auto& ex : kit::examples::measured_examples()) {
    const kit::BankReport r = analyze(ex.access, ex.op);
    ASSERT_TRUE(r.ok()) << ex.name;
    EXPECT_EQ(r.wavefronts, ex.measured) << ex.name;
    kit::Trace t;
    t.add(ex.op, ex.access, 3, ex.name);
    const kit::SharedCounts c = t.expected();
    const bool load = ex.op == kit::SharedOp::load;
    EXPECT_EQ(load ? c.load_requests : c.store_requests, 3u) << ex.name;
    EXPECT_EQ(load ? c.load_wavefronts : c.store_wavefronts, 3u * ex.measured) << ex.name;
    EXPECT_EQ(load ? c.store_requests : c.load_requests, 0u) << ex.name;
  }
}

TEST(BankModel, StoresAndLoadsAgreeWithoutPairsOrBroadcasts) {
  // The load-only merges aside, a store costs what the same load costs.
  for (int w : {1, 2, 4, 8, 16}) {
    for (unsigned s = 1; s <= 40; ++s) {
      const WarpAccess a = strided_access(w, s);
      EXPECT_EQ(kit::wavefronts(a, kit::SharedOp::store), kit::wavefronts(a)) << w << " " << s;
    }
  }
}

TEST(BankModel, EveryColumnOfTheMeasuredTilesCostsTheSame) {
  // The table measured one column; the model must give the same cost for all 32.
  for (int c = 0; c < 32; ++c) {
    EXPECT_EQ(kit::wavefronts(kit::examples::tile_column(4, 32, c)), 32) << "column " << c;
    EXPECT_EQ(kit::wavefronts(kit::examples::tile_column(4, 33, c)), 1) << "column " << c;
    EXPECT_EQ(kit::wavefronts(kit::examples::tile_column(2, 32, c)), 16) << "column " << c;
  }
}

TEST(BankModel, FloatStrideCostsGcdOfStrideAnd32) {
  for (unsigned s = 0; s <= 128; ++s) {
    const int expected = s == 0 ? 1 : std::gcd(static_cast<int>(s), 32);
    EXPECT_EQ(kit::wavefronts(strided_access(4, s)), expected) << "stride " << s;
  }
}

TEST(BankModel, IdealIsOnePhasePerWidthUnit) {
  EXPECT_EQ(analyze(strided_access(1, 1)).ideal, 1);
  EXPECT_EQ(analyze(strided_access(2, 1)).ideal, 1);
  EXPECT_EQ(analyze(strided_access(4, 1)).ideal, 1);
  EXPECT_EQ(analyze(strided_access(8, 1)).ideal, 2);
  EXPECT_EQ(analyze(strided_access(16, 1)).ideal, 4);
  for (int w : {1, 2, 4, 8, 16}) {
    EXPECT_EQ(kit::ideal_wavefronts(w), analyze(strided_access(w, 1)).ideal) << w;
  }
}

TEST(BankModel, PhasesSplitEightAndSixteenByteRequests) {
  const kit::BankReport d = analyze(strided_access(8, 2));
  EXPECT_EQ(d.phases, 2);
  EXPECT_EQ(d.phase_wavefronts[0] + d.phase_wavefronts[1], d.wavefronts);
  const kit::BankReport q = analyze(strided_access(16, 2));
  EXPECT_EQ(q.phases, 4);
  for (int lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(q.lanes[lane].phase, lane / 8);
    EXPECT_EQ(q.lanes[lane].words, 4);
  }
  // Loads merge: a broadcast is one phase for 8 bytes, two (16 lanes each) for 16 bytes.
  EXPECT_EQ(analyze(strided_access(8, 0)).phases, 1);
  EXPECT_TRUE(analyze(strided_access(8, 0)).paired);
  EXPECT_EQ(analyze(strided_access(16, 0)).phases, 2);
  EXPECT_TRUE(analyze(strided_access(16, 0)).uniform);
  // Stores do not.
  EXPECT_EQ(analyze(strided_access(8, 0), kit::SharedOp::store).phases, 2);
  EXPECT_EQ(analyze(strided_access(16, 0), kit::SharedOp::store).phases, 4);
}

TEST(BankModel, LaneDetailNamesBankWordAndWavefront) {
  const kit::BankReport r = analyze(strided_access(4, 2));
  for (int lane = 0; lane < 32; ++lane) {
    const kit::LaneDetail& d = r.lanes[lane];
    EXPECT_TRUE(d.active);
    EXPECT_EQ(d.word, 2u * lane);
    EXPECT_EQ(d.bank, (2 * lane) % 32);
    // Lanes 0-15 are the first word of their bank, lanes 16-31 the second.
    EXPECT_EQ(d.wavefront, lane / 16);
  }
}

TEST(BankModel, InactiveLanesTakeNoPart) {
  // Only the first half-warp of a stride-32 read: 16 words in bank 0.
  EXPECT_EQ(kit::wavefronts(strided_access(4, 32, 0, 0x0000ffffu)), 16);
  // One lane alone costs one wavefront.
  EXPECT_EQ(kit::wavefronts(strided_access(4, 32, 0, 0x1u)), 1);
  // An inactive lane's address is not checked for alignment.
  WarpAccess a = strided_access(4, 1, 0, 0xfffffffeu);
  a.address[0] = 3;
  EXPECT_TRUE(analyze(a).ok());
  EXPECT_FALSE(analyze(a).lanes[0].active);
  // 16-byte accesses with only the first quarter active: one phase has work.
  const kit::BankReport q = analyze(strided_access(16, 1, 0, 0x000000ffu));
  EXPECT_EQ(q.wavefronts, 1);
  EXPECT_EQ(q.ideal, 1);
  // No active lane: no request at all.
  EXPECT_EQ(analyze(strided_access(4, 1, 0, 0u)).wavefronts, 0);
}

TEST(BankModel, MisalignedAddressesAreErrors) {
  for (int w : {2, 4, 8, 16}) {
    WarpAccess a = strided_access(w, 1);
    a.address[7] += static_cast<std::uint32_t>(w / 2);
    const kit::BankReport r = analyze(a);
    EXPECT_EQ(r.error, kit::ModelError::misaligned) << "width " << w;
    EXPECT_EQ(r.error_lane, 7) << "width " << w;
    EXPECT_EQ(kit::wavefronts(a), 0);
  }
  WarpAccess odd = strided_access(1, 1);
  odd.address[3] = 1001; // any byte address is aligned for 1-byte accesses
  EXPECT_TRUE(analyze(odd).ok());
}

TEST(BankModel, BadWidthsAreErrors) {
  for (int w : {0, 3, 5, 6, 12, 32, -4}) {
    WarpAccess a = strided_access(4, 1);
    a.width = w;
    EXPECT_EQ(analyze(a).error, kit::ModelError::bad_width) << "width " << w;
  }
}

TEST(BankModel, ConflictCountersReadTheExcessOverTheIdeal) {
  EXPECT_EQ(analyze(strided_access(4, 32)).excess(), 31);
  EXPECT_EQ(analyze(strided_access(8, 1)).excess(), 0);
  EXPECT_EQ(analyze(strided_access(8, 0)).excess(), 0);
  EXPECT_EQ(analyze(strided_access(16, 2)).excess(), 4);
}

TEST(BankModel, MergedLoadsHaveTheIdealOfTheirPhases) {
  // A merge joins phases: the ideal is one wavefront per phase the lanes would take were they
  // conflict-free, as the bank-conflict counters read it (gpu_counters_ideal_test). Stores
  // never merge.
  EXPECT_EQ(analyze(strided_access(8, 0)).ideal, 1);  // broadcast: one phase
  EXPECT_EQ(analyze(strided_access(16, 0)).ideal, 2); // broadcast: two phases of 16 lanes
  EXPECT_EQ(analyze(kit::examples::grouped(16, 2, 16)).ideal, 2); // pairs: half-warps
  EXPECT_EQ(analyze(kit::examples::grouped(8, 2, 8)).ideal, 1);
  EXPECT_EQ(analyze(strided_access(8, 0), kit::SharedOp::store).ideal, 2);
  EXPECT_EQ(analyze(strided_access(16, 0), kit::SharedOp::store).ideal, 4);
  // Read from the load bank-conflict counters (H100, 2026-11-23; gpu_counters_ideal_test):
  // an 8-byte load of pairs 2 apart costs 2, 1 beyond its merged phase; a 16-byte load of
  // pairs 2 apart costs 4, 2 beyond its two merged phases.
  EXPECT_EQ(analyze(kit::examples::grouped(8, 2, 16)).excess(), 1);
  EXPECT_EQ(analyze(kit::examples::grouped(16, 2, 32)).excess(), 2);
  // Lanes 0, 2, 4, ... of a 16-byte stride-1 load: each half's two quarters could share a
  // wavefront but ask banks 0-3 twice, so the load costs 4 where 2 would do (the counters
  // read 2 conflicts).
  const kit::BankReport even = analyze(strided_access(16, 1, 0, 0x55555555u));
  EXPECT_EQ(even.wavefronts, 4);
  EXPECT_EQ(even.phases, 4);
  EXPECT_EQ(even.ideal, 2);
  EXPECT_EQ(analyze(strided_access(16, 1, 0, 0x000000ffu)).ideal, 1);
  EXPECT_EQ(analyze(strided_access(16, 1, 0, 0x80000001u)).ideal, 2);
  // A request never costs less than its ideal: every measured example, loads and stores.
  for (const auto& ex : kit::examples::measured_examples()) {
    const kit::BankReport r = analyze(ex.access, ex.op);
    EXPECT_GE(r.wavefronts, r.ideal) << ex.name;
    EXPECT_LE(r.ideal, r.phases) << ex.name;
    kit::Trace t;
    t.add(ex.op, ex.access, 5, ex.name);
    const kit::SharedCounts e = t.expected(), i = t.ideal();
    EXPECT_LE(i.load_wavefronts, e.load_wavefronts) << ex.name;
    EXPECT_LE(i.store_wavefronts, e.store_wavefronts) << ex.name;
  }
}

TEST(BankModel, WavefrontsNeverExceedWordsAskedFor) {
  // Property: cost is between the ideal (bar broadcasts) and the words one bank can be asked.
  for (int w : {1, 2, 4, 8, 16}) {
    for (unsigned s = 1; s <= 64; ++s) {
      const kit::BankReport r = analyze(strided_access(w, s));
      ASSERT_TRUE(r.ok());
      EXPECT_GE(r.wavefronts, r.ideal) << w << " " << s;
      EXPECT_LE(r.wavefronts, 32) << w << " " << s;
      for (int lane = 0; lane < 32; ++lane) {
        EXPECT_LT(r.lanes[lane].wavefront, r.wavefronts);
      }
    }
  }
}

// The narrowest pitch a column read serves is the first, from the tile's width up, that the model
// prices at the ideal: every aligned pitch before it costs more.
TEST(NarrowestColumnPitch, IsTheFirstPitchTheModelPricesAtTheIdeal) {
  for (int elem : {1, 2, 4, 8}) {
    for (int vec : {1, 2, 4}) {
      if (elem * vec > 16) {
        continue;
      }
      const int ideal = kit::ideal_wavefronts(elem * vec);
      for (int width : {8, 16, 32, 64}) {
        const int pitch = kit::narrowest_column_pitch(width, elem, vec);
        ASSERT_GT(pitch, 0) << elem << "-byte x" << vec << ", width " << width;
        const auto column = [&](int p) {
          return kit::strided_access(elem * vec, static_cast<std::uint32_t>(p / vec));
        };
        EXPECT_EQ(kit::wavefronts(column(pitch)), ideal);
        EXPECT_EQ(pitch % vec, 0);
        for (int p = width; p < pitch; p += 1) {
          if (p % vec == 0) {
            EXPECT_GT(kit::wavefronts(column(p)), ideal)
                << elem << "-byte x" << vec << ", pitch " << p << " comes first";
          }
        }
      }
    }
  }
  static_assert(kit::narrowest_column_pitch(32, 4) > 32, "a 32-float row's column conflicts");
}

} // namespace
