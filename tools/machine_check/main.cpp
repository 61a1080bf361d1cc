// course-machine-check: what a grader needs to know about this machine before it runs a
// student's tests, as one JSON object: whether a usable GPU is here (and why not), and whether
// its performance counters can be read. Built from the kit alone, so no student code runs in
// it; the grader runs it in the same sandbox as the tests, so it sees what they see.
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
  std::printf("{\"gpu\": %s, \"reason\": %s, \"description\": %s, \"counters\": %s, "
              "\"counters_reason\": %s}\n",
              gpu.usable ? "true" : "false", course_tools::json_string(gpu.reason).c_str(),
              course_tools::json_string(kit::device_description()).c_str(),
              counters ? "true" : "false", course_tools::json_string(counters_reason).c_str());
  return 0;
}
