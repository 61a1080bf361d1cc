// Parts 2 and 3 on the GPU: transpose_half2's counters equal the trace of the pair geometry
// (two halves per access on full tiles, the scalar path elsewhere), and on full tiles both
// transposes read one wavefront per request, the ideal of their widths. Where the grader finds
// the counters refused, the counts come from the CPU run of the same launches (your kernel, run
// on the CPU), and the report lines say so.
#include <gtest/gtest.h>

#include <tuple>

#include <demo.hpp>
#include <exercise.hpp>

#include "half_check.hpp"
#include "half_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class Half2Counters : public lesson06::testing::TransposeCounterTest {};

TEST_F(Half2Counters, EqualTheTraceOfThePairGeometry) {
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  expect_counts_of("transpose_half2", lesson06::transpose_half2,
                   lesson06::testing::half2_counter_shapes(), lesson06::testing::half2_trace);
}

TEST_F(Half2Counters, FullTilesAreConflictFree) {
  const auto misaligned = lesson06::testing::pair_misalignment();
  ASSERT_FALSE(misaligned.has_value()) << "not launched: " << *misaligned;
  constexpr int kSide = lesson06::testing::kFullTilesSide;
  kit::DeviceBuffer<__half> in(kSide * kSide), out(kSide * kSide);
  in.fill_bytes(0);
  const kit::Trace half = lesson06::testing::half_trace(kSide, kSide);
  const kit::Trace half2 = lesson06::testing::half2_trace(kSide, kSide);
  for (const auto& [name, op, trace] :
       {std::tuple{"transpose_half", &lesson06::transpose_half, &half},
        std::tuple{"transpose_half2", &lesson06::transpose_half2, &half2}}) {
    const kit::SharedCounters c = measure(
        {name, kSide, kSide}, [&, op = op] { op(in.get(), out.get(), kSide, kSide, nullptr); });
    // The requests of the trace, every one at the ideal of its width.
    const kit::SharedCounts conflict_free = trace->ideal();
    kit::testing::report(std::string(name) + " 256 x 256", c, conflict_free);
    EXPECT_TRUE(kit::testing::counts_match(c, conflict_free, trace))
        << name << " should cost one wavefront per request on full tiles (kHalfPitch = "
        << lesson06::kHalfPitch << ")";
  }
}

} // namespace
