#include "kit/testing.hpp"

#include "kit/testing_cpu_run.hpp"

#include "kit/pattern_bench.hpp"
#include "kit/prediction.hpp"
#include "kit/trace.hpp"

#include <cstdio>
#include <optional>
#include <random>
#include <sstream>

namespace kit::testing {
namespace {

std::string fixed(double value, int digits) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << value;
  return s.str();
}

std::string per_request(std::uint64_t wavefronts, std::uint64_t requests) {
  return fixed(requests ? double(wavefronts) / double(requests) : 0.0, 2);
}

/// Prints the device line when the tests start (after GoogleTest's "Global test environment
/// set-up" line, so it opens every test's output).
class DeviceLine : public ::testing::Environment {
public:
  void SetUp() override {
    std::printf("[kit-device] %s\n", device_description().c_str());
    std::fflush(stdout);
  }
  /// Closes the counter session the last counter test kept, while CUDA is still up.
  void TearDown() override { CounterSession::close_kept(); }
};

} // namespace

bool announce_device() {
  static const bool registered = [] {
    ::testing::AddGlobalTestEnvironment(new DeviceLine); // GoogleTest owns it
    return true;
  }();
  return registered;
}

namespace {

struct Declared {
  bool made = false;
  Needs lesson;
  std::vector<TestNeeds> tests;
};

Declared& declared() {
  static Declared d;
  return d;
}

std::string this_test_name() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return info ? std::string(info->test_suite_name()) + "." + info->name() : std::string();
}

} // namespace

bool declare_needs(const Needs& lesson, std::vector<TestNeeds> tests) {
  declared() = Declared{true, lesson, std::move(tests)};
  return true;
}

Needs needs_of_this_test() {
  return needs_of(declared().lesson, declared().tests, this_test_name());
}

std::optional<std::string> gpu_refusal() {
  if (!gpu_status().usable) {
    return gpu_status().reason;
  }
  if (auto problem = profile_problem()) {
    return problem;
  }
  return unmet_need(needs_of_this_test(), gpu_capabilities());
}

namespace {

/// `why`, and where the running test's lesson declares its needs but not this one, a clause
/// that says so: the grader decides from the declarations, before a test runs.
std::optional<std::string> undeclared(std::optional<std::string> why, bool declared_need,
                                      const char* key) {
  if (why && declared().made && !declared_need) {
    *why += std::string("; its lesson's manifest does not declare this need (gpu.tests, ") + key +
            "): the grader cannot know it before the test runs";
  }
  return why;
}

} // namespace

std::optional<std::string> wide_rules_refusal() {
  Needs wide;
  wide.wide_rules = true;
  return undeclared(unmet_need(wide, gpu_capabilities()), needs_of_this_test().wide_rules,
                    "wide_rules");
}

std::optional<std::string> ldmatrix_rule_refusal() {
  Needs rule;
  rule.ldmatrix_rule = true;
  return undeclared(unmet_need(rule, gpu_capabilities()), needs_of_this_test().ldmatrix_rule,
                    "ldmatrix_rule");
}

std::optional<std::string> unverified_rule(const Trace& trace) {
  if (wide_rules_verified()) {
    return std::nullopt;
  }
  for (const TraceEntry& e : trace.entries()) {
    if (e.access.width > kBankBytes) {
      Needs wide;
      wide.wide_rules = true;
      return undeclared(*unmet_need(wide, gpu_capabilities()) + " ('" + e.what + "', " +
                            std::to_string(e.access.width) + "-byte accesses)",
                        needs_of_this_test().wide_rules, "wide_rules");
    }
  }
  return std::nullopt;
}

std::uint64_t fresh_seed() {
  std::uint64_t seed = 0;
  if (auto v = env("KIT_SEED")) {
    seed = std::stoull(*v);
  } else {
    std::random_device rd;
    seed = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }
  std::printf("[kit-seed] %llu (set KIT_SEED=%llu to replay)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) {
    x = dist(gen);
  }
  return v;
}

std::vector<std::uint32_t> random_bits(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) {
    x = static_cast<std::uint32_t>(gen());
  }
  return v;
}

namespace {

/// A measured number of a report line: "?" while kit::counts_shown() is false, saying why once
/// per program.
std::string shown_or_held(const std::string& number) {
  if (counts_shown()) {
    return number;
  }
  static const bool told = [] {
    std::printf("[kit-note] the counts and ratios of these lines read \"?\" until you have "
                "written down your Part 1 predictions in exercise.hpp\n");
    return true;
  }();
  (void)told;
  return "?";
}

} // namespace

std::string measured_text(double value, int digits) {
  return shown_or_held(fixed(value, digits));
}

void report(const SlowdownVerdict& v) {
  std::printf("[kit-slowdown] %s: measured %sx model %sx fidelity %s warps/SM %d (%s)\n",
              v.message.substr(0, v.message.find(':')).c_str(),
              measured_text(v.last.ratio, 2).c_str(), measured_text(v.model_ratio, 2).c_str(),
              measured_text(v.fidelity(), 3).c_str(), v.last.warps_per_sm, verdict_name(v.kind));
  std::fflush(stdout);
}

void report(const std::string& what, const SharedCounters& m, const SharedCounts& e) {
  const std::string shown = m.from_cpu_recording ? what + " (from the CPU recording)" : what;
  std::printf("[kit-counters] %s: load %s wavefronts/request (model %s), store %s (model %s), "
              "requests %llu/%llu (model %llu/%llu)\n",
              shown.c_str(),
              shown_or_held(per_request(m.sass.load_wavefronts, m.sass.load_requests)).c_str(),
              shown_or_held(per_request(e.load_wavefronts, e.load_requests)).c_str(),
              shown_or_held(per_request(m.sass.store_wavefronts, m.sass.store_requests)).c_str(),
              shown_or_held(per_request(e.store_wavefronts, e.store_requests)).c_str(),
              static_cast<unsigned long long>(m.sass.load_requests),
              static_cast<unsigned long long>(m.sass.store_requests),
              static_cast<unsigned long long>(e.load_requests),
              static_cast<unsigned long long>(e.store_requests));
  std::fflush(stdout);
}

::testing::AssertionResult counts_match(const SharedCounters& measured,
                                        const SharedCounts& expected, const Trace* trace) {
  const SharedCounts& m = measured.sass;
  if (m == expected) {
    return ::testing::AssertionSuccess();
  }
  // Where the grader found the counters refused, the counts are the CPU run's (its recording of
  // the same launch): the message says so rather than speak of counters.
  const bool cpu = measured.from_cpu_recording;
  const char* source = cpu ? "CPU run " : "counters";
  std::ostringstream s;
  s << (cpu ? "the CPU recording of the launch (the counters are refused on this machine) "
            : "hardware counters ")
    << "differs from the bank model\n"
    << "           requests   wavefronts   wavefronts/request\n"
    << "  loads    " << source << " " << m.load_requests << " / " << m.load_wavefronts << " ("
    << per_request(m.load_wavefronts, m.load_requests) << ")   model " << expected.load_requests
    << " / " << expected.load_wavefronts << " ("
    << per_request(expected.load_wavefronts, expected.load_requests) << ")\n"
    << "  stores   " << source << " " << m.store_requests << " / " << m.store_wavefronts << " ("
    << per_request(m.store_wavefronts, m.store_requests) << ")   model " << expected.store_requests
    << " / " << expected.store_wavefronts << " ("
    << per_request(expected.store_wavefronts, expected.store_requests) << ")\n"
    << (cpu ? ""
            : "  (bank-conflict counters: load " + std::to_string(measured.load_bank_conflicts) +
                  ", store " + std::to_string(measured.store_bank_conflicts) +
                  "; kernels measured: " + std::to_string(measured.kernels) + ")\n");
  if (m.load_requests != expected.load_requests || m.store_requests != expected.store_requests) {
    s << "Requests differ: the kernel does not issue the instructions the trace describes. The "
         "compiler may have merged neighbouring accesses into a wider one (two 4-byte loads "
         "into one 8-byte load), split one, or hoisted a load out of a loop; or the trace "
         "misses a loop iteration or a masked lane. Compare with the SASS (cuobjdump -sass: "
         "LDS, LDS.64, LDS.128, STS).\n";
  } else {
    s << "Requests agree but wavefronts differ: the addresses the kernel uses are not the ones "
         "the trace computes (an index function that differs between kernel and trace?), or "
         "the layout conflicts where you think it does not.\n";
  }
  if (trace) {
    s << "The trace:\n" << trace->describe();
  }
  return ::testing::AssertionFailure() << s.str();
}

bool counts_from_cpu_recording() {
  const std::optional<std::string> from = env(kCountsFromVariable);
  if (!from || from->empty() || *from == "counters") {
    return false;
  }
  if (*from == "cpu-recording") {
    return true;
  }
  throw std::invalid_argument(std::string(kCountsFromVariable) + "=" + *from +
                              ": the counts come from `counters` or `cpu-recording`");
}

void CounterTest::SetUp() {
  KIT_REQUIRE_GPU();
  if (counts_from_cpu_recording()) {
    std::printf("[kit-note] the counts of this test come from the CPU recording: the grader "
                "found the counters refused on this machine (%s=cpu-recording)\n",
                kCountsFromVariable);
    std::fflush(stdout);
    return;
  }
  // The session an earlier counter test of this process kept, or a new one; a new one checks
  // a forced refusal first, then the GPU: either way a skip with a reason.
  session_ = CounterSession::take_kept();
  if (session_ == nullptr) {
    session_ = std::make_unique<CounterSession>();
  }
  if (!session_->ok()) {
    GTEST_SKIP() << session_->refusal();
  }
}

void CounterTest::TearDown() {
  // Kept for the next counter test of this process, unless this one failed: a failure may
  // have left the profiler mid-measurement.
  if (session_ != nullptr && !HasFailure()) {
    CounterSession::keep(std::move(session_));
  }
  session_.reset();
}

CounterSession& CounterTest::session() {
  if (session_ == nullptr) {
    throw std::logic_error("this test reads the hardware counters themselves, and its counts "
                           "come from the CPU recording here (" +
                           std::string(kCountsFromVariable) +
                           "=cpu-recording): only measure() of a RecordedLaunch can take them "
                           "from there; its lesson's manifest must not list it in "
                           "gpu.cpu_recording");
  }
  return *session_;
}

SharedCounters CounterTest::measure(const RecordedLaunch& which,
                                    const std::function<void()>& launch) {
  if (session_ != nullptr) {
    return session_->measure(launch);
  }
  std::string error;
  const std::vector<CpuRecorded> runs = record_launches({which}, &error);
  if (runs.empty()) {
    throw std::runtime_error("no CPU recording of " + which.kernel + " " +
                             std::to_string(which.rows) + " x " + std::to_string(which.cols) +
                             ": " + error);
  }
  SharedCounters c;
  c.sass = runs.front().counts;
  c.from_cpu_recording = true;
  return c;
}

SharedCounters CounterTest::expect_counts(const std::string& what, const Trace& trace,
                                          const std::function<void()>& launch) {
  const SharedCounts expected = trace.expected();
  const SharedCounters measured = session().measure(launch);
  report(what, measured, expected);
  EXPECT_TRUE(counts_match(measured, expected, &trace)) << "while measuring: " << what;
  return measured;
}

SharedCounters CounterTest::expect_counts(const std::string& what, const Trace& trace,
                                          const RecordedLaunch& which,
                                          const std::function<void()>& launch) {
  const SharedCounts expected = trace.expected();
  const SharedCounters measured = measure(which, launch);
  report(what, measured, expected);
  EXPECT_TRUE(counts_match(measured, expected, &trace)) << "while measuring: " << what;
  return measured;
}

void expect_model_slowdown(const Pattern& a, const Pattern& b) {
  PatternBench pa(a), pb(b);
  const PatternPair pair = saturating_pair(pa, pb);
  KIT_EXPECT_SLOWDOWN(pair.a, pair.b, model_ratio(a, b));
}

SharedCounters CounterTest::expect_pattern(const Pattern& pattern) {
  constexpr int kBlocks = 4;
  constexpr int kRounds = 2;
  const PatternBench bench(pattern);
  const SharedCounters c = expect_counts(pattern.name, bench.trace(kBlocks, kRounds),
                                         [&] { bench.run(kBlocks, kRounds); });
  const std::uint64_t requests =
      pattern.op == SharedOp::load ? c.sass.load_requests : c.sass.store_requests;
  EXPECT_EQ(requests, bench.pattern_requests(kBlocks, kRounds)) << pattern.name;
  return c;
}

SharedCounters CounterTest::expect_ideal(const std::string& what, const Trace& trace,
                                         const std::function<void()>& launch,
                                         const std::string& loads, const std::string& stores) {
  const SharedCounters c = session().measure(launch);
  report(what, c, trace.expected());
  const SharedCounts ideal = trace.ideal();
  EXPECT_EQ(c.sass.load_requests, ideal.load_requests)
      << what << ": the kernel does not issue the loads its trace describes";
  struct Side {
    const std::string& name;
    std::uint64_t wavefronts, ideal, requests;
  };
  // Where the trace says the conflict is: the first instruction over its ideal, by its label.
  const std::optional<OverIdeal> over = first_over_ideal(trace);
  const std::string where =
      over ? "; the model's first instruction over its ideal: " + over->describe() : std::string();
  for (const Side& s :
       {Side{loads, c.sass.load_wavefronts, ideal.load_wavefronts, c.sass.load_requests},
        Side{stores, c.sass.store_wavefronts, ideal.store_wavefronts, c.sass.store_requests}}) {
    // Not what they cost: with a starter's layout that is often a prediction's answer (the
    // [kit-counters] line above gives the counts).
    EXPECT_TRUE(s.wavefronts == s.ideal)
        << what << ": " << s.name << " conflict: the counters read more wavefronts than the ideal"
        << " of their " << s.requests << " requests" << where;
  }
  return c;
}

} // namespace kit::testing
