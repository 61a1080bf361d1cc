// The demos on the GPU, counted: the probe kernels and the four setups issue exactly the
// requests and wavefronts their traces say. The setups' small ratios (perf_guard_setups_test)
// are not the hardware doing less work: the counters show every wavefront the model gives
// each stride.
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, ProbeKernelsIssueTheirTrace) {
  const lesson10::ProbeLaunch l{4, 256, 3};
  kit::DeviceBuffer<float> sink(1);
  for (lesson10::Probe p : {lesson10::Probe::conflict, lesson10::Probe::twin}) {
    expect_counts("probe " + lesson10::probe_name(p), lesson10::probe_trace(p, l).compacted(),
                  [&] { lesson10::launch_probe(p, l, sink.get()); });
  }
}

TEST_F(DemoCounters, SetupsIssueTheirTrace) {
  for (lesson10::Setup s : lesson10::kSetups) {
    for (int stride : lesson10::kSetupStrides) {
      expect_counts("setup '" + lesson10::setup_name(s) + "' stride " + std::to_string(stride),
                    lesson10::setup_trace(s, stride), [&] { lesson10::run_setup_once(s, stride); });
    }
  }
}

} // namespace
