// Counter sessions refuse cleanly: a forced refusal and a missing GPU both give ok() ==
// false and a reason, never a crash, and the timer will not time under an open session.
#include <gtest/gtest.h>

#include <cstdlib>

#include "kit/counters.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"

namespace {

TEST(CounterRefusal, ForcedRefusalGivesTheReason) {
  ::setenv("KIT_COUNTERS_REFUSE", "simulated restricted counters", 1);
  kit::CounterSession s;
  ::unsetenv("KIT_COUNTERS_REFUSE");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.refusal().find("simulated restricted counters"), std::string::npos) << s.refusal();
  EXPECT_THROW(s.measure([] {}), std::runtime_error);
  EXPECT_FALSE(kit::CounterSession::active()) << "a refused session is not a profiler";
}

TEST(CounterRefusal, TimerRefusesUnderAnOpenSession) {
  KIT_REQUIRE_GPU();
  kit::CounterSession s;
  if (!s.ok()) {
    GTEST_SKIP() << s.refusal();
  }
  kit::PatternBench a(kit::strided_pattern(4, 1));
  EXPECT_THROW(kit::time_launch(a.launch(1, 1)), std::logic_error);
}

} // namespace
