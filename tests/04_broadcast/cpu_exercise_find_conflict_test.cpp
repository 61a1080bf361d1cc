// Part 3 on the CPU: your finding about center_blocks as it was handed to you, held against
// the bank model; and your fixed layout, every access at 1 wavefront, every warp's partial sum
// kept (a layout that loses data scores nothing, however cheap). A wrong finding fails with
// what you wrote and the question, never the answer; the cost of each kind of access of your
// layout is listed only once your finding is right.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "center_blocks_trace.hpp"
#include "kit/bank_model.hpp"
#include "kit/prediction.hpp"

namespace {

constexpr int kFourBlocks = 4 * lesson04::kCenterBlockThreads;

/// The one access of the kernel as found that costs more than its ideal.
const kit::TraceEntry* conflicting(const kit::Trace& t) {
  for (const kit::TraceEntry& e : t.entries()) {
    const kit::BankReport r = kit::analyze(e.access, e.op);
    if (r.wavefronts > r.ideal) {
      return &e;
    }
  }
  return nullptr;
}

/// Both parts of the finding (kFoundConflictAccess, kFoundConflictWavefronts) match the model.
bool finding_is_right() {
  const kit::Trace found = lesson04::testing::found_center_trace(kFourBlocks);
  const kit::TraceEntry* e = conflicting(found);
  return e != nullptr && lesson04::testing::access_of(*e) == lesson04::kFoundConflictAccess &&
         kit::analyze(e->access, e->op).wavefronts == lesson04::kFoundConflictWavefronts;
}

/// Why center_blocks would lose a partial sum with your partial_offset, or nothing: an offset
/// outside `partials` (kPartialCapacity floats), or two warps at one offset.
std::optional<std::string> partial_loss() {
  std::vector<int> owner(lesson04::kPartialCapacity, -1);
  for (int w = 0; w < lesson04::kCenterWarps; ++w) {
    const int o = lesson04::partial_offset(w);
    if (o < 0 || o >= lesson04::kPartialCapacity) {
      return "warp " + std::to_string(w) + "'s offset " + std::to_string(o) +
             " lies outside `partials` (" + std::to_string(lesson04::kPartialCapacity) + " floats)";
    }
    if (owner[o] >= 0) {
      return "warps " + std::to_string(owner[o]) + " and " + std::to_string(w) + " share offset " +
             std::to_string(o) +
             ": the block loses a partial sum (every warp needs a float of its own)";
    }
    owner[o] = w;
  }
  return std::nullopt;
}

TEST(FindConflict, TheAccessThatConflicts) {
  const kit::Trace found = lesson04::testing::found_center_trace(kFourBlocks);
  const kit::TraceEntry* e = conflicting(found);
  ASSERT_TRUE(e != nullptr) << "center_blocks as found has no conflict: the lesson's demo changed";
  KIT_EXPECT_PREDICTION(
      lesson04::kFoundConflictAccess, lesson04::testing::access_of(*e),
      "which of center_blocks' four kinds of shared access (CenterAccess) costs more than 1 "
      "wavefront per request, as the kernel was handed to you? The counters' report "
      "([kit-counters], README Part 3) says whether it is the loads or the stores; then write "
      "down each access's lanes and offsets and give them to bank-map");
}

TEST(FindConflict, ItsWavefrontsPerRequest) {
  const kit::Trace found = lesson04::testing::found_center_trace(kFourBlocks);
  const kit::TraceEntry* e = conflicting(found);
  ASSERT_TRUE(e != nullptr) << "center_blocks as found has no conflict: the lesson's demo changed";
  KIT_EXPECT_PREDICTION(lesson04::kFoundConflictWavefronts,
                        kit::analyze(e->access, e->op).wavefronts,
                        "how many different words does the busiest bank serve in one request of "
                        "the access that conflicts? (bank-map counts them)");
}

TEST(FindConflict, FixedEveryAccessCostsOneWavefront) {
  const std::optional<std::string> loss = partial_loss();
  ASSERT_FALSE(loss.has_value()) << "partial_offset: " << *loss;
  for (int n : {kFourBlocks, lesson04::kCenterBlockThreads * 3 + 77}) {
    const kit::Trace t = lesson04::testing::center_trace(n);
    const kit::SharedCounts model = t.expected(), ideal = t.ideal();
    EXPECT_TRUE(model.load_wavefronts == ideal.load_wavefronts &&
                model.store_wavefronts == ideal.store_wavefronts)
        << "n = " << n
        << ": some access of center_blocks still conflicts"
        // The totals would give the finding's cost away (the extra wavefronts per block).
        << (finding_is_right() ? " (loads " + std::to_string(model.load_wavefronts) +
                                     " wavefronts, ideal " + std::to_string(ideal.load_wavefronts) +
                                     "; stores " + std::to_string(model.store_wavefronts) +
                                     ", ideal " + std::to_string(ideal.store_wavefronts) + ")"
                               : std::string())
        << ".\n"
        << (finding_is_right()
                ? "Each kind of access with your partial_offset (requests: the warp "
                  "instructions the launch executes):\n" +
                      lesson04::testing::costs_by_access(t)
                : std::string("The cost of each kind of access is listed here once your finding "
                              "(kFoundConflictAccess, kFoundConflictWavefronts) is right."));
  }
}

} // namespace
