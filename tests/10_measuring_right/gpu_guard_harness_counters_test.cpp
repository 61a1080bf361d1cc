// Part 3 on the GPU, counted: your harness issues exactly the requests its plan's trace says,
// both probe kernels, nothing dropped, nothing extra (a harness that times something other
// than its plan fails here).
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/testing.hpp"

namespace {

class HarnessTrace : public kit::testing::CounterTest {};

TEST_F(HarnessTrace, TheHarnessIssuesWhatItsPlanSays) {
  lesson10::HarnessPlan plan = lesson10::plan_harness();
  // One launch of each kernel: the counters replay every kernel, and a plan's dozens of
  // repeats would only multiply the same counts.
  plan.warmup = 0;
  plan.repeats = 1;
  kit::Trace trace = lesson10::probe_trace(lesson10::Probe::conflict, plan.launch);
  trace.append(lesson10::probe_trace(lesson10::Probe::twin, plan.launch));
  expect_counts("run_harness: conflict and twin, one launch each", trace.compacted(),
                [&] { lesson10::run_harness(plan); });
}

} // namespace
