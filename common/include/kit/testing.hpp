/// @file testing.hpp
/// @brief GoogleTest helpers: skip with a reason, the slowdown band, counters against traces.
///
/// Every GPU test starts with KIT_REQUIRE_GPU() (or KIT_REQUIRE_TIMING() for timing tests),
/// so a machine without a usable GPU reports the test as skipped, with the reason, never as
/// passed. Messages say what was expected, what was measured and what usually causes the
/// difference. Every program that includes this header prints its GPU once, before its first
/// test: `[kit-device] NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)` (kit::device_description()), so
/// a test report says which GPU its measurements are from.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kit/counters.hpp"
#include "kit/device.hpp"
#include "kit/needs.hpp"
#include "kit/pattern.hpp"
#include "kit/recorded_launch.hpp"
#include "kit/timer.hpp"
#include "kit/trace.hpp"

/// Skips the test, with the reason, when there is no usable GPU, or when this GPU does not meet
/// what the test needs (its lesson's manifest declares it: kit::testing::declare_needs).
#define KIT_REQUIRE_GPU()                                                                          \
  do {                                                                                             \
    if (const auto kit_refused_ = ::kit::testing::gpu_refusal()) {                                 \
      GTEST_SKIP() << *kit_refused_;                                                               \
    }                                                                                              \
  } while (0)

/// Skips a timing test when there is no usable GPU or in the small (sanitizer) mode.
#define KIT_REQUIRE_TIMING()                                                                       \
  do {                                                                                             \
    KIT_REQUIRE_GPU();                                                                             \
    if (::kit::small_mode()) {                                                                     \
      GTEST_SKIP() << "timings are not taken in the small (sanitizer) mode, KIT_SMALL=1";          \
    }                                                                                              \
  } while (0)

/// Skips, with the reason, a counter test whose trace has 8- or 16-byte accesses on an
/// architecture where the bank model's rules for those widths were not verified.
#define KIT_REQUIRE_VERIFIED_RULES(trace)                                                          \
  do {                                                                                             \
    if (auto kit_why_ = ::kit::testing::unverified_rule(trace)) {                                  \
      GTEST_SKIP() << *kit_why_;                                                                   \
    }                                                                                              \
  } while (0)

/// Skips a timing verdict (kit::SlowdownVerdict, kit::AtLeastVerdict) that is inconclusive or
/// unsupported, with its message; expects any other to be a pass, with its message followed
/// by `hint` when it is not.
#define KIT_EXPECT_VERDICT(verdict, hint)                                                          \
  do {                                                                                             \
    const auto& kit_v_ = (verdict);                                                                \
    if (kit_v_.kind == ::kit::Verdict::inconclusive ||                                             \
        kit_v_.kind == ::kit::Verdict::unsupported) {                                              \
      GTEST_SKIP() << kit_v_.message;                                                              \
    }                                                                                              \
    EXPECT_EQ(kit_v_.kind, ::kit::Verdict::pass) << kit_v_.message << (hint);                      \
  } while (0)

/// Measures A against B and expects the ratio in the band around the model's ratio. Skips
/// (with the reason) when the GPU was busy or cannot hold enough warps to show the ratio.
#define KIT_EXPECT_SLOWDOWN(launch_a, launch_b, model_ratio)                                       \
  do {                                                                                             \
    const ::kit::SlowdownVerdict kit_verdict_ =                                                    \
        ::kit::judge_slowdown((launch_a), (launch_b), (model_ratio));                              \
    ::kit::testing::report(kit_verdict_);                                                          \
    KIT_EXPECT_VERDICT(kit_verdict_, "");                                                          \
  } while (0)

namespace kit::testing {

/// Declares what the tests of this program need of the GPU: their lesson's needs, and more for
/// the tests `tests` names. A lesson's GPU test program calls it as it starts, from a
/// translation unit cmake/CourseLesson.cmake generates from the lesson's manifest (lesson.json,
/// `gpu`). Returns true, for a static initializer.
bool declare_needs(const Needs& lesson, std::vector<TestNeeds> tests);

/// What the running test needs (its full GoogleTest name against the declared needs).
Needs needs_of_this_test();

/// Why this test cannot run on this GPU: no usable GPU (its reason), a simulated profile that
/// does not exist, or the first declared need this GPU does not meet (one sentence:
/// "needs the TMA (sm_90 and later); this GPU is sm_86"); nothing when it can run.
std::optional<std::string> gpu_refusal();

/// Why the bank model's 8- and 16-byte rules cannot be trusted on this GPU, in
/// kit::unmet_need's sentence, or nothing.
std::optional<std::string> wide_rules_refusal();

/// Why the bank model's ldmatrix rule cannot be trusted on this GPU (it was measured on the
/// architectures of common/gpu_profiles.json's `ldmatrix_rule` only), or nothing.
std::optional<std::string> ldmatrix_rule_refusal();

/// Why the model's rules for a trace's widths cannot be trusted on this GPU (8- and 16-byte
/// accesses where the rules are not verified), or nothing. A test that needs them declares it
/// (`wide_rules` in its lesson's manifest), so that the grader knows before it runs; the
/// sentence says when a test meets this without declaring it.
std::optional<std::string> unverified_rule(const Trace& trace);

/// A fresh random seed for this test (printed, so a failure can be replayed), or the value
/// of KIT_SEED when set.
std::uint64_t fresh_seed();

/// `n` random floats in [-1, 1) from `seed`.
std::vector<float> random_floats(std::size_t n, std::uint64_t seed);

/// `n` random 32-bit values from `seed` (bit patterns: a copy must move every bit).
std::vector<std::uint32_t> random_bits(std::size_t n, std::uint64_t seed);

/// Times pattern `a` against pattern `b` (each issued by every warp of a saturating launch,
/// in one run) and expects the ratio in the band around the model's ratio of the two; skips
/// with the reason when the GPU was busy or cannot show the ratio.
void expect_model_slowdown(const Pattern& a, const Pattern& b);

/// Registers, once per program, the GoogleTest environment that prints
/// `[kit-device] <kit::device_description()>` when the tests start. Returns true.
bool announce_device();

/// A measured number as the measurement lines print it, `digits` after the point; "?" while
/// kit::counts_shown() is false (a `[kit-note]` says why, once a program). For a lesson's own
/// lines of what it measures, beside report()'s.
std::string measured_text(double value, int digits);

/// Prints one machine-readable line for a slowdown (read back by the progress report):
/// `[kit-slowdown] <A> over <B>: measured 2.91x model 3.00x fidelity 0.97 (pass)`.
void report(const SlowdownVerdict& v);

/// Prints one machine-readable line for counters held against a trace:
/// `[kit-counters] <what>: load 1.00 wavefronts/request (model 1.00), store ...`.
void report(const std::string& what, const SharedCounters& measured, const SharedCounts& expected);

/// Counters equal to the model's expectation, all four numbers; the message shows both per
/// instruction kind, and what a mismatch usually means.
::testing::AssertionResult counts_match(const SharedCounters& measured,
                                        const SharedCounts& expected, const Trace* trace = nullptr);

/// The variable by which the grader tells a counter test where its counts come from:
/// `cpu-recording` where its own check of the machine found the counters refused and the test's
/// lesson declares that the test may take them from the CPU run of the same kernels (its
/// manifest's gpu.cpu_recording: tools/course/grading/grade_tests.py). Unset: the counters.
inline constexpr const char* kCountsFromVariable = "KIT_COUNTS_FROM";

/// True when this test's counts come from the CPU recording ($KIT_COUNTS_FROM is
/// `cpu-recording`); throws std::invalid_argument on another value.
bool counts_from_cpu_recording();

/// A fixture with an open counter session in each test; skips with the reason when the
/// counters cannot be read (no GPU, restricted counters, another profiler attached, ...).
/// The counter tests of one process share the session: a test that passed keeps it for the
/// next (CounterSession::keep; each measurement starts from fresh counter data).
/// Where the grader says the counts come from the CPU recording (kCountsFromVariable), no
/// session opens: measure() with a RecordedLaunch gives what the CPU run of the same launch
/// recorded, and a test that reads the session itself fails, saying why.
class CounterTest : public ::testing::Test {
protected:
  /// Opens the session (or takes the one kept); skips the test with the session's reason when
  /// it is refused.
  void SetUp() override;
  /// Keeps the session for the next counter test, when this one did not fail.
  void TearDown() override;
  /// Measures `launch` and expects the counters to equal `trace`'s model; prints the report
  /// line. Returns the counters.
  SharedCounters expect_counts(const std::string& what, const Trace& trace,
                               const std::function<void()>& launch);
  /// The same for `launch`, which is `which` (one of the lesson's kernels on a matrix of that
  /// shape): its counts from the CPU recording where the grader says so (measure()).
  SharedCounters expect_counts(const std::string& what, const Trace& trace,
                               const RecordedLaunch& which, const std::function<void()>& launch);
  /// Runs `pattern` in the pattern microbenchmark (4 blocks, 2 rounds) and expects the
  /// counters to equal its trace, and its own requests to be exactly one per warp, round and
  /// unrolled access (a merged or dropped access shows there). Returns the counters.
  SharedCounters expect_pattern(const Pattern& pattern);
  /// Measures `launch`, prints its report line (`what` against the model of `trace`) and
  /// expects the requests of the trace with every load and every store at its width's ideal:
  /// what an exercise's counter test asks once the kernel is conflict-free. `loads` and
  /// `stores` name the kernel's loads and stores in the messages. Returns the counters.
  SharedCounters expect_ideal(const std::string& what, const Trace& trace,
                              const std::function<void()>& launch, const std::string& loads,
                              const std::string& stores);
  /// The counts of `launch`, which is `which`: one of the lesson's kernels on a matrix of that
  /// shape, as its CPU kernel program can repeat it. Measured by the session; where the grader
  /// says the counts come from the CPU recording, what the CPU run of `which` recorded
  /// (`from_cpu_recording` set; `launch` does not run). Throws std::runtime_error when neither
  /// can be had.
  SharedCounters measure(const RecordedLaunch& which, const std::function<void()>& launch);
  /// The session (open when the test runs). Throws std::logic_error where the counts come
  /// from the CPU recording: a test that reads the counters themselves cannot take them from
  /// there.
  CounterSession& session();

private:
  std::unique_ptr<CounterSession> session_;
};

/// Every program that includes this header registers the device line at start-up (a reference
/// from the program's own code, so the linker keeps the environment of the static library).
[[maybe_unused]] static const bool kDeviceAnnounced = announce_device();

} // namespace kit::testing
