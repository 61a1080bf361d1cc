// The timing policy on the CPU, with made-up measurements: a test measures until one
// measurement meets its bar, at most kSlowdownAttempts times; a near miss on a busy or
// unsteady GPU is inconclusive, any other miss fails; an unsupported GPU ends the test at once;
// and the GPU is asked whether it was busy only after a near miss.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "kit/timing_policy.hpp"

namespace {

using kit::TimingAttempt;
using kit::Verdict;

TimingAttempt met() {
  TimingAttempt a;
  a.met = true;
  return a;
}

TimingAttempt missed(bool near, double spread = 0.0) {
  TimingAttempt a;
  a.near_miss = near;
  a.spread = spread;
  return a;
}

const std::optional<std::string> kQuiet = std::nullopt;
const std::optional<std::string> kBusy = std::string("another process is using the GPU");

TEST(TimingPolicy, AMeasurementThatMeetsTheBarPasses) {
  EXPECT_EQ(kit::decide_timing({met()}, kQuiet).kind, Verdict::pass);
  EXPECT_EQ(kit::decide_timing({missed(true), missed(false), met()}, kBusy).kind, Verdict::pass);
}

TEST(TimingPolicy, AMissOnAQuietSteadyGpuFails) {
  const kit::TimingDecision d =
      kit::decide_timing({missed(true), missed(true), missed(true)}, kQuiet);
  EXPECT_EQ(d.kind, Verdict::fail);
  EXPECT_EQ(d.attempts, 3);
  EXPECT_TRUE(d.reason.empty());
}

TEST(TimingPolicy, ANearMissOnABusyGpuIsInconclusive) {
  const kit::TimingDecision d = kit::decide_timing({missed(true)}, kBusy);
  EXPECT_EQ(d.kind, Verdict::inconclusive);
  EXPECT_EQ(d.reason, *kBusy);
}

TEST(TimingPolicy, ANearMissWithUnsteadyLaunchTimesIsInconclusive) {
  const kit::TimingDecision d =
      kit::decide_timing({missed(true, 0.0), missed(true, kit::kUnsteadySpread + 0.05)}, kQuiet);
  EXPECT_EQ(d.kind, Verdict::inconclusive);
  EXPECT_EQ(d.reason, "launch times varied by 30% between repeats");
  // The spread that counts is the last measurement's.
  EXPECT_EQ(kit::decide_timing({missed(true, 0.5), missed(true, 0.1)}, kQuiet).kind, Verdict::fail);
}

TEST(TimingPolicy, AFarMissFailsEvenOnABusyGpu) {
  EXPECT_EQ(kit::decide_timing({missed(false), missed(false)}, kBusy).kind, Verdict::fail);
  EXPECT_EQ(kit::decide_timing({missed(false, 0.9)}, kQuiet).kind, Verdict::fail);
  // One near miss among the attempts makes the miss near (the best value decides).
  EXPECT_EQ(kit::decide_timing({missed(false), missed(true), missed(false)}, kBusy).kind,
            Verdict::inconclusive);
}

TEST(TimingPolicy, AnUnsupportedGpuEndsTheTest) {
  TimingAttempt a = met();
  a.unsupported = "only 16 warps per SM fit";
  const kit::TimingDecision d = kit::decide_timing({a}, kBusy);
  EXPECT_EQ(d.kind, Verdict::unsupported);
  EXPECT_EQ(d.reason, "only 16 warps per SM fit");
}

// time_with_policy with measurements given in advance: the value each measure() returns, and
// a bar of 10 (near from 8.5).
struct Script {
  std::vector<double> values;
  int taken = 0;
  int contention_asked = 0;
  std::optional<std::string> contention;

  kit::Timed<double> run() {
    return kit::time_with_policy([&] { return values.at(static_cast<std::size_t>(taken++)); },
                                 [](double v) {
                                   TimingAttempt a;
                                   a.met = v >= 10;
                                   a.near_miss = v >= kit::kNearMissFraction * 10;
                                   return a;
                                 },
                                 [&] {
                                   ++contention_asked;
                                   return contention;
                                 });
  }
};

TEST(TimingPolicy, MeasuresUntilTheBarIsMet) {
  Script s{{9, 11, 12}, 0, 0, std::nullopt};
  const kit::Timed<double> t = s.run();
  EXPECT_EQ(t.decision.kind, Verdict::pass);
  EXPECT_EQ(t.measurements, (std::vector<double>{9, 11}));
  EXPECT_EQ(s.contention_asked, 0) << "a pass never asks whether the GPU was busy";
}

TEST(TimingPolicy, MeasuresAtMostTheAttemptsAllowed) {
  Script s{{1, 2, 3, 4, 5}, 0, 0, std::nullopt};
  const kit::Timed<double> t = s.run();
  EXPECT_EQ(static_cast<int>(t.measurements.size()), kit::kSlowdownAttempts);
  EXPECT_EQ(t.decision.attempts, kit::kSlowdownAttempts);
  EXPECT_EQ(t.decision.kind, Verdict::fail);
  EXPECT_EQ(s.contention_asked, 0) << "a far miss fails whatever the GPU's state";
}

TEST(TimingPolicy, AsksAboutTheGpuAfterANearMiss) {
  Script s{{9, 8, 7}, 0, 0, "the clocks are held down"};
  const kit::Timed<double> t = s.run();
  EXPECT_EQ(s.contention_asked, 1);
  EXPECT_EQ(t.decision.kind, Verdict::inconclusive);
  EXPECT_EQ(t.decision.reason, "the clocks are held down");
}

} // namespace
