// course-machine-check: what a grader needs to know about this machine before it runs a
// student's tests, as one JSON object: whether a usable GPU is here (and why not), and whether
// its performance counters can be read. Built from the kit alone, so no student code runs in
// it; the grader runs it in the same sandbox as the tests, so it sees what they see. What the GPU
// offers the tests (its architecture, compute capability, shared memory a block may opt in to,
// TMA, ldmatrix, stmatrix, and whether the bank model's wide rules are verified on it: the
// self-check record KIT_SELF_CHECK names) is what the grader holds each test's declared needs to.
//
//   course-machine-check            {"gpu": true, "description": "...", "counters": true, ...}
//
// Exit status: 0 (the answer is in the JSON, whatever it is), 2 for bad usage.
#include <cstdio>
#include <string>

#include "json_string.hpp"
#include "kit/counters.hpp"
#include "kit/device.hpp"

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
  const kit::Capabilities& caps = kit::gpu_capabilities();
  const bool usable = gpu.usable;
  std::printf(
      "{\"gpu\": %s, \"reason\": %s, \"description\": %s, \"counters\": %s, "
      "\"counters_reason\": %s, \"arch\": %s, \"compute_capability\": %d, "
      "\"shared_memory_per_block\": %zu, \"tma\": %s, \"ldmatrix\": %s, "
      "\"stmatrix\": %s, \"wide_rules\": %s, \"ldmatrix_rule\": %s}\n",
      usable ? "true" : "false", course_tools::json_string(gpu.reason).c_str(),
      course_tools::json_string(kit::device_description()).c_str(), counters ? "true" : "false",
      course_tools::json_string(counters_reason).c_str(),
      course_tools::json_string(usable ? caps.arch : "").c_str(),
      usable ? caps.compute_capability : 0, usable ? caps.shared_memory_per_block : std::size_t{0},
      usable && caps.tma ? "true" : "false", usable && caps.ldmatrix ? "true" : "false",
      usable && caps.stmatrix ? "true" : "false", usable && caps.wide_rules ? "true" : "false",
      usable && caps.ldmatrix_rule ? "true" : "false");
  return 0;
}
