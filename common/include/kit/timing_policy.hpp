/// @file timing_policy.hpp
/// @brief The one policy every timing test follows, from measurements to a verdict.
///
/// A timing test measures, and measures again (up to kSlowdownAttempts times) until one
/// measurement meets its bar: the band around the model's ratio (judge_slowdown), or a least
/// acceptable value (judge_at_least). When none does, the miss is
///   - inconclusive (the test skips, with the reason) when it is a near miss and the GPU was
///     busy or throttled (gpu_contention()) or its launch times were unsteady (a spread above
///     kUnsteadySpread);
///   - a failure otherwise: on a quiet, steady GPU, or by more than a busy GPU explains.
/// A measurement showing that this GPU cannot show the effect at all (too few warps per SM for
/// a slowdown) ends the test as unsupported.
///
/// The decision is a pure function of the measurements (decide_timing), and the loop around
/// the measuring (time_with_policy) takes the measuring as a function: both are host code with
/// no CUDA, tested on the CPU; timer.hpp measures with them.
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kit {

/// Spread of samples ((max - min) / median) above which timings are called unsteady.
inline constexpr double kUnsteadySpread = 0.25;
/// Measurements of a timing test before a miss counts as a failure.
inline constexpr int kSlowdownAttempts = 3;
/// A miss of a least acceptable value is near (and may be inconclusive on a busy GPU) while
/// the value reaches this fraction of the bar; a larger miss fails whatever the GPU's state: a
/// starter that is 5x too slow is not explained by a busy GPU.
inline constexpr double kNearMissFraction = 0.85;

/// The verdict of a timing test.
enum class Verdict {
  pass,         ///< A measurement met the bar.
  fail,         ///< Every measurement missed, on a quiet GPU or by too much.
  inconclusive, ///< A near miss, but the GPU was busy, throttled or unsteady.
  unsupported,  ///< This GPU cannot show what is measured (too few warps per SM fit).
};

/// The name of a verdict, as report lines print it: "pass", "fail", ...
inline const char* verdict_name(Verdict v) {
  switch (v) {
  case Verdict::pass:
    return "pass";
  case Verdict::fail:
    return "fail";
  case Verdict::inconclusive:
    return "inconclusive";
  case Verdict::unsupported:
    return "unsupported";
  }
  return "?";
}

/// One measurement as the policy sees it.
struct TimingAttempt {
  bool met = false;      ///< It meets the test's bar.
  bool near_miss = true; ///< Had it missed: by little enough for a busy GPU to explain.
  double spread = 0;     ///< (max - min) / median of its samples, the larger of the kernels'.
  std::optional<std::string> unsupported; ///< Why this GPU cannot show the effect (ends the test).
};

/// The policy's conclusion on a test's measurements.
struct TimingDecision {
  Verdict kind = Verdict::fail; ///< The verdict.
  int attempts = 0;             ///< Measurements taken.
  std::string reason;           ///< Why, for inconclusive and unsupported; empty otherwise.
};

/// True when a miss of `attempts` should ask whether the GPU was busy: some attempt was a near
/// miss, and the last one neither met the bar nor was unsupported.
inline bool needs_contention_check(const std::vector<TimingAttempt>& attempts) {
  if (attempts.empty() || attempts.back().met || attempts.back().unsupported) {
    return false;
  }
  for (const TimingAttempt& a : attempts) {
    if (a.near_miss) {
      return true;
    }
  }
  return false;
}

/// The verdict on `attempts`, in the order they were taken (the last one ended the test: it met
/// the bar, was unsupported, or was the kSlowdownAttempts-th), given what gpu_contention() said
/// after them (`contention`: read only when needs_contention_check()).
inline TimingDecision decide_timing(const std::vector<TimingAttempt>& attempts,
                                    const std::optional<std::string>& contention) {
  TimingDecision d;
  d.attempts = static_cast<int>(attempts.size());
  if (attempts.empty()) {
    d.reason = "nothing was measured";
    return d;
  }
  const TimingAttempt& last = attempts.back();
  if (last.unsupported) {
    d.kind = Verdict::unsupported;
    d.reason = *last.unsupported;
    return d;
  }
  if (last.met) {
    d.kind = Verdict::pass;
    return d;
  }
  if (!needs_contention_check(attempts)) {
    return d; // a miss too large for a busy GPU to explain
  }
  std::optional<std::string> busy = contention;
  if (!busy && last.spread > kUnsteadySpread) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(0);
    s << "launch times varied by " << 100 * last.spread << "% between repeats";
    busy = s.str();
  }
  if (busy) {
    d.kind = Verdict::inconclusive;
    d.reason = *busy;
  }
  return d;
}

/// A timing test's measurements and the policy's decision on them.
template <class Measurement>
struct Timed {
  TimingDecision decision;               ///< The verdict.
  std::vector<Measurement> measurements; ///< Every measurement, in order (at least one).
};

/// The whole policy: takes `measure()` until `assess(measurement)` (a TimingAttempt) meets the
/// bar or is unsupported, at most kSlowdownAttempts times; after a near miss asks
/// `contention()` (gpu_contention) whether the GPU was busy; decides (decide_timing).
template <class Measure, class Assess, class Contention>
auto time_with_policy(Measure&& measure, Assess&& assess, Contention&& contention)
    -> Timed<decltype(measure())> {
  Timed<decltype(measure())> t;
  std::vector<TimingAttempt> attempts;
  while (static_cast<int>(attempts.size()) < kSlowdownAttempts) {
    t.measurements.push_back(measure());
    attempts.push_back(assess(t.measurements.back()));
    if (attempts.back().met || attempts.back().unsupported) {
      break;
    }
  }
  const std::optional<std::string> busy =
      needs_contention_check(attempts) ? contention() : std::nullopt;
  t.decision = decide_timing(attempts, busy);
  return t;
}

} // namespace kit
