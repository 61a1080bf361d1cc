// course-machine-check: what a grader needs to know about this machine before it runs a
// student's tests, as one JSON object: whether a usable GPU is here (and why not), and whether
// its performance counters can be read. Built from the kit alone, so no student code runs in
// it; the grader runs it in the same sandbox as the tests, so it sees what they see. What the GPU
// offers the tests (its architecture, compute capability, shared memory a block may opt in to,
// TMA, ldmatrix, stmatrix, and whether the bank model's wide rules are verified on it: the
// self-check record KIT_SELF_CHECK names) is what the grader holds each test's declared needs to.
//
// Whether this GPU can show a slowdown at all is measured here too, as the timing tests measure
// one (kit::judge_slowdown: saturating launches, the band around the model's ratio, the one
// timing policy): a 2-way and a 32-way conflict of 4-byte loads against the conflict-free
// stride, the smallest and the largest slowdown the lessons time. Where either is not a pass
// (too few warps per SM to saturate, a busy, throttled or unsteady GPU, a ratio outside its
// band), the grader lists the timing tests as not gradable here, with this probe's message,
// before any student code runs. The probe's kernels are the kit's; it reads no counters (their
// session is closed by then).
//
//   course-machine-check            {"gpu": true, "description": "...", "counters": true, ...,
//                                    "timing": true, "timing_reason": "", "timing_probes": [...]}
//
// Exit status: 0 (the answer is in the JSON, whatever it is), 2 for bad usage.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "json_string.hpp"
#include "kit/counters.hpp"
#include "kit/device.hpp"
#include "kit/pattern.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/timer.hpp"

namespace {

/// One probe of the timing check: A over the conflict-free stride, judged as a timing test.
struct TimingProbe {
  std::string name;
  kit::SlowdownVerdict verdict;
};

/// The probes, and why this GPU cannot show a slowdown (empty when both pass).
std::vector<TimingProbe> probe_timing(std::string* why) {
  std::vector<TimingProbe> probes;
  const kit::Pattern ideal = kit::strided_pattern(4, 1);
  for (const unsigned stride : {2u, 32u}) {
    const kit::Pattern conflicted = kit::strided_pattern(4, stride);
    kit::PatternBench a(conflicted), b(ideal);
    const kit::PatternPair pair = kit::saturating_pair(a, b);
    TimingProbe p{conflicted.name + " over " + ideal.name,
                  kit::judge_slowdown(pair.a, pair.b, kit::model_ratio(conflicted, ideal))};
    if (p.verdict.kind != kit::Verdict::pass && why->empty()) {
      *why = p.name + ": " + kit::verdict_name(p.verdict.kind) + ": " + p.verdict.message;
    }
    probes.push_back(p);
  }
  return probes;
}

std::string probes_json(const std::vector<TimingProbe>& probes) {
  std::string out = "[";
  for (const TimingProbe& p : probes) {
    const kit::SlowdownVerdict& v = p.verdict;
    char numbers[256];
    std::snprintf(numbers, sizeof numbers,
                  ", \"model\": %.4g, \"measured\": %.4g, \"low\": %.4g, \"high\": %.4g, "
                  "\"spread\": %.4g, \"warps_per_sm\": %d, \"attempts\": %d}",
                  v.model_ratio, v.last.ratio, v.band.low, v.band.high,
                  std::max(v.last.a.spread(), v.last.b.spread()), v.last.warps_per_sm, v.attempts);
    out += std::string(out.size() > 1 ? ", " : "") +
           "{\"probe\": " + course_tools::json_string(p.name) +
           ", \"verdict\": " + course_tools::json_string(kit::verdict_name(v.kind)) + numbers;
  }
  return out + "]";
}

} // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "course-machine-check: takes no arguments (got '%s')\n", argv[1]);
    return 2;
  }
  const kit::GpuStatus& gpu = kit::gpu_status();
  bool counters = false;
  std::string counters_reason = "no usable GPU";
  if (gpu.usable) {
    const kit::CounterSession session;
    counters = session.ok();
    counters_reason = session.refusal();
  }
  std::string timing_reason = "no usable GPU";
  std::vector<TimingProbe> probes;
  if (gpu.usable) {
    timing_reason.clear();
    try {
      probes = probe_timing(&timing_reason);
    } catch (const std::exception& e) {
      timing_reason = std::string("the timing probe could not run: ") + e.what();
    }
  }
  const kit::Capabilities& caps = kit::gpu_capabilities();
  const bool usable = gpu.usable;
  std::printf(
      "{\"gpu\": %s, \"reason\": %s, \"description\": %s, \"counters\": %s, "
      "\"counters_reason\": %s, \"arch\": %s, \"compute_capability\": %d, "
      "\"shared_memory_per_block\": %zu, \"tma\": %s, \"ldmatrix\": %s, "
      "\"stmatrix\": %s, \"wide_rules\": %s, \"ldmatrix_rule\": %s, \"timing\": %s, "
      "\"timing_reason\": %s, \"timing_probes\": %s}\n",
      usable ? "true" : "false", course_tools::json_string(gpu.reason).c_str(),
      course_tools::json_string(kit::device_description()).c_str(), counters ? "true" : "false",
      course_tools::json_string(counters_reason).c_str(),
      course_tools::json_string(usable ? caps.arch : "").c_str(),
      usable ? caps.compute_capability : 0, usable ? caps.shared_memory_per_block : std::size_t{0},
      usable && caps.tma ? "true" : "false", usable && caps.ldmatrix ? "true" : "false",
      usable && caps.stmatrix ? "true" : "false", usable && caps.wide_rules ? "true" : "false",
      usable && caps.ldmatrix_rule ? "true" : "false", timing_reason.empty() ? "true" : "false",
      course_tools::json_string(timing_reason).c_str(), probes_json(probes).c_str());
  return 0;
}
