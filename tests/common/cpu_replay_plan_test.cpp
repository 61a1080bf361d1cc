// The plan of a trace replay (kit/replay_plan.hpp) keeps its promises on the CPU: shifts by
// whole 128-byte rows are one instruction, every replayed instruction costs what the original
// does, and no byte is shared by two store instructions, two warps, or a load and a store (so
// the replay kernel is clean under racecheck, and its loads read only the filled region).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>

#include "kit/bank_model.hpp"
#include "kit/replay_plan.hpp"
#include "kit/trace.hpp"

namespace {

constexpr int kWarps = 8; // the replay's blocks: 256 threads

/// A trace of every width, loads and stores, full and masked warps, with shifted copies.
kit::Trace mixed_trace() {
  kit::Trace t;
  for (kit::SharedOp op : {kit::SharedOp::load, kit::SharedOp::store}) {
    for (int width : {1, 2, 4, 8, 16}) {
      for (unsigned stride : {1u, 2u, 33u}) {
        t.add(op, kit::strided_access(width, stride), 2);
        t.add(op, kit::strided_access(width, stride, 4096), 1);           // the same, shifted
        t.add(op, kit::strided_access(width, stride, 0, 0x0000ffffu), 3); // a half-warp
      }
    }
  }
  return t;
}

TEST(ReplayPlan, ShiftsByWholeRowsAreOneInstruction) {
  kit::Trace t;
  t.add(kit::SharedOp::load, kit::strided_access(4, 1), 2);
  t.add(kit::SharedOp::load, kit::strided_access(4, 1, 128), 3);
  t.add(kit::SharedOp::load, kit::strided_access(4, 1, 4096), 5);
  t.add(kit::SharedOp::load, kit::strided_access(4, 1, 4), 7); // one word over: another bank
  const kit::ReplayPlan p = kit::plan_replay(t, "shifts");
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.counts[0], 10u);
  EXPECT_EQ(p.counts[1], 7u);
}

TEST(ReplayPlan, EveryInstructionCostsWhatTheOriginalDoes) {
  const kit::Trace t = mixed_trace();
  const kit::ReplayPlan p = kit::plan_replay(t, "mixed");
  ASSERT_EQ(p.steps.size(), 2u * 5 * 3 * 2); // the shifted copies fold in, the masked ones not
  std::uint64_t issued = 0;
  for (std::size_t e = 0; e < p.steps.size(); ++e) {
    issued += p.counts[e];
  }
  std::uint64_t traced = 0;
  for (const kit::TraceEntry& entry : t.entries()) {
    traced += entry.repeat;
    const bool store = entry.op == kit::SharedOp::store;
    const int want = kit::wavefronts(entry.access, entry.op);
    bool found = false;
    for (std::size_t e = 0; e < p.steps.size(); ++e) {
      if ((p.steps[e].store != 0) != store || p.steps[e].mask != entry.access.mask ||
          static_cast<int>(p.steps[e].width) != entry.access.width) {
        continue;
      }
      for (int w = 0; w < kWarps; ++w) {
        const kit::WarpAccess a = p.access(e, w);
        if (kit::wavefronts(a, entry.op) != want) {
          continue;
        }
        // The same lanes at the same distances from each other: the instruction, moved.
        bool same = true;
        for (int l = 1; l < kit::kWarpSize && same; ++l) {
          if (a.active(l) && a.active(0)) {
            same = a.address[l] - a.address[0] == entry.access.address[l] - entry.access.address[0];
          }
        }
        found = found || same;
      }
    }
    EXPECT_TRUE(found) << "no replayed instruction costs what this one does (" << want
                       << " wavefronts, width " << entry.access.width << ")";
  }
  EXPECT_EQ(issued, traced);
}

TEST(ReplayPlan, NoByteIsSharedByTwoStoresTwoWarpsOrALoadAndAStore) {
  const kit::ReplayPlan p = kit::plan_replay(mixed_trace(), "mixed");
  // byte -> (warp, step) of the store that writes it
  std::map<std::size_t, std::pair<int, std::size_t>> written;
  for (std::size_t e = 0; e < p.steps.size(); ++e) {
    for (int w = 0; w < kWarps; ++w) {
      const kit::WarpAccess a = p.access(e, w);
      for (int lane = 0; lane < kit::kWarpSize; ++lane) {
        if (!a.active(lane)) {
          continue;
        }
        const std::size_t first = a.address[lane];
        const std::size_t end = first + static_cast<std::size_t>(a.width);
        if (p.steps[e].store == 0) {
          ASSERT_LE(end, p.load_bytes) << "a load outside the filled region";
          continue;
        }
        ASSERT_GE(first, p.load_bytes) << "a store into the loads' region";
        ASSERT_LE(end, p.smem_bytes(kWarps)) << "a store past the block's shared memory";
        for (std::size_t b = first; b < end; ++b) {
          const auto [it, fresh] = written.emplace(b, std::make_pair(w, e));
          // Lanes of one instruction may share a byte only where the trace has them share it
          // (the same warp and step): a broadcast store, which this trace has not.
          ASSERT_TRUE(fresh) << "byte " << b << " is written by warp " << w << ", step " << e
                             << " and by warp " << it->second.first << ", step "
                             << it->second.second;
        }
      }
    }
  }
}

TEST(ReplayPlan, RefusesAnEmptyTraceAndAnInvalidInstruction) {
  EXPECT_THROW(kit::plan_replay(kit::Trace{}, "empty"), std::invalid_argument);
  kit::Trace t;
  t.add(kit::SharedOp::load, kit::strided_access(8, 1, 4), 1); // misaligned
  EXPECT_THROW(kit::plan_replay(t, "misaligned"), std::invalid_argument);
}

} // namespace
