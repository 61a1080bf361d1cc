// Part 3 on the CPU: the readback reverses each block, and the bank model finds every
// shared-memory instruction of the kernel conflict-free, with a layout that keeps every
// thread's element (a layout that loses data scores nothing, however cheap). A failure is
// reported at the function of exercise.hpp it judges.
#include <gtest/gtest.h>

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <exercise.hpp>

#include "kit/at_ideal.hpp"
#include "kit/bank_model.hpp"
#include "kit/testing_exercise.hpp"
#include "kit/trace.hpp"
#include "reverse_trace.hpp"

namespace {

/// Why reverse_blocks would lose data with your stage_offset, or nothing: an offset outside
/// the block's kBlockThreads floats, or two threads of a block at one offset.
std::optional<std::string> staging_loss() {
  std::vector<int> owner(lesson01::kBlockThreads, -1);
  for (int t = 0; t < lesson01::kBlockThreads; ++t) {
    const int offset = lesson01::stage_offset(t);
    if (offset < 0 || offset >= lesson01::kBlockThreads) {
      return "thread " + std::to_string(t) + " stages at offset " + std::to_string(offset) +
             ", outside the block's " + std::to_string(lesson01::kBlockThreads) +
             " floats of shared memory";
    }
    if (owner[offset] >= 0) {
      return "threads " + std::to_string(owner[offset]) + " and " + std::to_string(t) +
             " share offset " + std::to_string(offset) +
             ": the block loses data (every thread needs a float of its own)";
    }
    owner[offset] = t;
  }
  return std::nullopt;
}

TEST(Layout, ReadbackReversesTheBlock) {
  for (int count : {1, 2, 31, 32, 33, 200, lesson01::kBlockThreads}) {
    // The block's threads in reverse order: a failure prints the thread wanted, not a formula.
    std::vector<int> reversed(static_cast<std::size_t>(count));
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    for (int t = 0; t < count; ++t) {
      const int wanted = reversed[static_cast<std::size_t>(t)];
      KIT_ASSERT_EQ_AT_EXERCISE("reversed_thread", lesson01::reversed_thread(t, count), wanted)
          << "thread " << t << " of a block of " << count << " writes back the element of the "
          << "thread as far from the block's end as it is from its start";
    }
  }
}

TEST(Layout, EveryWarpInstructionIsConflictFree) {
  const std::optional<std::string> loss = staging_loss();
  KIT_ASSERT_AT_EXERCISE("stage_offset", !loss.has_value()) << "stage_offset: " << *loss;
  // Full blocks and short last blocks: each instruction must cost the ideal (1 wavefront). One
  // failure for the layout: the first instruction over it, the lanes that collide there, and
  // how many more do the same.
  kit::Trace all;
  for (int n : {lesson01::kBlockThreads, lesson01::kBlockThreads + 77, 45}) {
    const kit::Trace trace = lesson01::testing::reverse_trace(n);
    for (const kit::TraceEntry& e : trace.entries()) {
      all.add(e.op, e.access, e.repeat, e.what + " (n = " + std::to_string(n) + ")");
    }
  }
  KIT_EXPECT_AT_EXERCISE("stage_offset", kit::at_ideal(all))
      << "Draw warp 0's stores: `bank-map --type float --store --index 'EXPR'`, EXPR your "
         "stage_offset with l for t (the starter's: '(l%8)*32 + l/8').";
}

} // namespace
