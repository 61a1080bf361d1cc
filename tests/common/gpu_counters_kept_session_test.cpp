// The session the counter tests of one process share (CounterSession::keep / take_kept): the
// next counter test takes the very session the last one kept and measures with it exactly what
// a new session measures; nothing else ever runs beside a kept session (a new session, the
// timer and a forced refusal close it first).
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "kit/counters.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"

namespace kept_session {

constexpr int kBlocks = 4;
constexpr int kRounds = 2;

/// A new shared-memory session, or a skip with the reason it was refused.
#define KEPT_SESSION_OR_SKIP(name)                                                                 \
  auto name = std::make_unique<kit::CounterSession>();                                             \
  if (!name->ok()) {                                                                               \
    GTEST_SKIP() << name->refusal();                                                               \
  }

/// The counters of `pattern` in the pattern kernel, measured by `session`.
kit::SharedCounters counted(kit::CounterSession& session, const kit::Pattern& pattern) {
  const kit::PatternBench bench(pattern);
  return session.measure([&] { bench.run(kBlocks, kRounds); });
}

kit::SharedCounts model(const kit::Pattern& pattern) {
  return kit::PatternBench(pattern).trace(kBlocks, kRounds).expected();
}

TEST(KeptSession, TheNextTestTakesItAndItMeasuresAsANewOne) {
  KIT_REQUIRE_GPU();
  const kit::Pattern two_way = kit::strided_pattern(4, 2);
  const kit::Pattern sixteen_way = kit::strided_pattern(4, 16);
  KEPT_SESSION_OR_SKIP(fresh);
  const kit::SharedCounters new_two = counted(*fresh, two_way);
  const kit::SharedCounters new_sixteen = counted(*fresh, sixteen_way);
  const kit::CounterSession* const address = fresh.get();
  kit::CounterSession::keep(std::move(fresh));
  EXPECT_TRUE(kit::CounterSession::active()) << "a kept session stays open";

  std::unique_ptr<kit::CounterSession> taken = kit::CounterSession::take_kept();
  ASSERT_EQ(taken.get(), address) << "the next test takes the session the last one kept";
  EXPECT_EQ(kit::CounterSession::take_kept(), nullptr) << "a kept session is taken once";
  // In the opposite order from the new session's measurements: nothing carries over.
  const kit::SharedCounters kept_sixteen = counted(*taken, sixteen_way);
  const kit::SharedCounters kept_two = counted(*taken, two_way);
  for (const auto& [what, kept, fresh_counts, pattern] :
       {std::tuple{"2-way", kept_two, new_two, two_way},
        std::tuple{"16-way", kept_sixteen, new_sixteen, sixteen_way}}) {
    kit::testing::report(std::string("kept session, ") + what, kept, model(pattern));
    EXPECT_TRUE(kit::testing::counts_match(kept, model(pattern))) << what;
    EXPECT_EQ(kept.sass.load_requests, fresh_counts.sass.load_requests) << what;
    EXPECT_EQ(kept.sass.load_wavefronts, fresh_counts.sass.load_wavefronts) << what;
    EXPECT_EQ(kept.load_bank_conflicts, fresh_counts.load_bank_conflicts) << what;
  }
  taken.reset();
  EXPECT_FALSE(kit::CounterSession::active());
}

TEST(KeptSession, ANewSessionClosesTheKeptOneFirst) {
  KIT_REQUIRE_GPU();
  KEPT_SESSION_OR_SKIP(first);
  kit::CounterSession::keep(std::move(first));
  // Two range profilers cannot share a context: this one opens only because the kept one
  // closed.
  KEPT_SESSION_OR_SKIP(second);
  EXPECT_EQ(kit::CounterSession::take_kept(), nullptr);
  const kit::Pattern p = kit::strided_pattern(4, 4);
  EXPECT_TRUE(kit::testing::counts_match(counted(*second, p), model(p)));
}

TEST(KeptSession, TheTimerClosesTheKeptOneAndTimes) {
  KIT_REQUIRE_GPU();
  KEPT_SESSION_OR_SKIP(session);
  kit::CounterSession::keep(std::move(session));
  const kit::PatternBench bench(kit::strided_pattern(4, 1));
  EXPECT_NO_THROW(kit::time_launch(bench.launch(1, 1)));
  EXPECT_FALSE(kit::CounterSession::active()) << "the timer closed the kept session";
  EXPECT_EQ(kit::CounterSession::take_kept(), nullptr);
}

TEST(KeptSession, AForcedRefusalClosesItAndRefuses) {
  KIT_REQUIRE_GPU();
  KEPT_SESSION_OR_SKIP(session);
  kit::CounterSession::keep(std::move(session));
  ::setenv("KIT_COUNTERS_REFUSE", "simulated restricted counters", 1);
  const std::unique_ptr<kit::CounterSession> taken = kit::CounterSession::take_kept();
  ::unsetenv("KIT_COUNTERS_REFUSE");
  EXPECT_EQ(taken, nullptr) << "a forced refusal is never answered by a kept session";
  EXPECT_FALSE(kit::CounterSession::active());
}

TEST(KeptSession, ARefusedSessionIsNotKept) {
  ::setenv("KIT_COUNTERS_REFUSE", "simulated restricted counters", 1);
  auto refused = std::make_unique<kit::CounterSession>();
  ::unsetenv("KIT_COUNTERS_REFUSE");
  kit::CounterSession::keep(std::move(refused));
  EXPECT_EQ(kit::CounterSession::take_kept(), nullptr);
  EXPECT_FALSE(kit::CounterSession::active());
}

} // namespace kept_session

#undef KEPT_SESSION_OR_SKIP
