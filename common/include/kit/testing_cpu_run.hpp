/// @file testing_cpu_run.hpp
/// @brief For GPU tests: what the CPU run of the same kernels recorded (kit/cpu_run.hpp), read
/// from the lesson's CPU kernel test program of this tree, so that the GPU test can hold it to the
/// hardware counters launch for launch. One program cannot hold both the nvcc and the host
/// compiler's definition of a kernel: the GPU test runs the CPU kernel test program, which writes a
/// line per run (kit::cpu::log_counts) to the file it is given.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/trace.hpp"

namespace kit::testing {

/// One CPU run of a kernel: which, on what shape, and the requests and wavefronts recorded.
struct CpuRecorded {
  std::string kernel;  ///< The function the test called ("transpose_tiled").
  int rows = 0;        ///< Rows of the input.
  int cols = 0;        ///< Columns of the input.
  SharedCounts counts; ///< What the CPU run recorded (the bank model's wavefronts).
};

/// Runs `<this program's folder>/<lesson>_<tree>_cpu_kernel --gtest_filter=<filter>` (the
/// lesson's CPU kernel test program of the same tree, built beside this one) with
/// KIT_CPU_COUNTS_OUT set, and returns the runs it logged. On a failure to run it, returns nothing
/// and says why in `error`. (The CPU tests' own verdicts do not matter here: a starter's kernel is
/// logged too.)
inline std::vector<CpuRecorded> cpu_recorded_counts(const std::string& lesson,
                                                    const std::string& tree,
                                                    const std::string& filter, std::string* error) {
  std::vector<CpuRecorded> runs;
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    *error = "cannot find this program's folder (/proc/self/exe)";
    return runs;
  }
  std::string dir(self, static_cast<std::size_t>(n));
  dir = dir.substr(0, dir.rfind('/'));
  const std::string program = dir + "/" + lesson + "_" + tree + "_cpu_kernel";
  if (access(program.c_str(), X_OK) != 0) {
    *error =
        program + " is not built: build the lesson's CPU tests too (target " + lesson + "-cpu)";
    return runs;
  }
  char path[] = "/tmp/kit-cpu-counts-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    *error = "cannot make a temporary file";
    return runs;
  }
  close(fd);
  const std::string command = "KIT_CPU_COUNTS_OUT='" + std::string(path) + "' '" + program +
                              "' '--gtest_filter=" + filter + "' > /dev/null 2>&1";
  const int status = std::system(command.c_str());
  (void)status; // a failing CPU test still logs its run
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    CpuRecorded r;
    if (s >> r.kernel >> r.rows >> r.cols >> r.counts.load_requests >> r.counts.load_wavefronts >>
        r.counts.store_requests >> r.counts.store_wavefronts) {
      runs.push_back(r);
    }
  }
  std::remove(path);
  if (runs.empty()) {
    *error = program + " --gtest_filter=" + filter +
             " logged no run (it crashed, or its tests "
             "were renamed)";
  }
  return runs;
}

/// Holds every run the CPU tests logged to the GPU's counters: each run's kernel (looked up in
/// `ops` by name, called as `op(in, out, rows, cols, stream)` on zeroed buffers of `T` of the
/// run's shape) must give, measured in `session`, the requests and wavefronts the CPU run
/// recorded; and every kernel of `ops` must have been run on the CPU at least once.
template <class T, class Op>
void expect_cpu_runs_match_counters(CounterSession& session, const std::vector<CpuRecorded>& runs,
                                    const std::map<std::string, Op>& ops) {
  for (const auto& [name, op] : ops) {
    bool seen = false;
    for (const CpuRecorded& r : runs) {
      seen = seen || r.kernel == name;
    }
    EXPECT_TRUE(seen) << name << " was not run on the CPU";
  }
  for (const CpuRecorded& r : runs) {
    const auto op = ops.find(r.kernel);
    ASSERT_NE(op, ops.end()) << "the CPU tests ran an unknown kernel: " << r.kernel;
    const std::size_t n = static_cast<std::size_t>(r.rows) * static_cast<std::size_t>(r.cols);
    DeviceBuffer<T> in(n), out(n);
    in.fill_bytes(0);
    const std::string what =
        r.kernel + " " + std::to_string(r.rows) + " x " + std::to_string(r.cols);
    const SharedCounters c =
        session.measure([&, f = op->second] { f(in.get(), out.get(), r.rows, r.cols, nullptr); });
    report(what + " (CPU run)", c, r.counts);
    EXPECT_TRUE(counts_match(c, r.counts))
        << what << ": the GPU's counters differ from what the CPU run of the same kernel recorded";
  }
}

} // namespace kit::testing
