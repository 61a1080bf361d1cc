/// @file testing_cpu_run.hpp
/// @brief For GPU tests: what the CPU run of the same kernels recorded (kit/cpu_run.hpp), read
/// from the lesson's CPU kernel test program of this tree. One program cannot hold both the nvcc
/// and the host compiler's definition of a kernel: the GPU test runs the CPU kernel test
/// program, which writes a line per run (kit::cpu::log_counts) to the file it is given. Two
/// uses: holding the CPU recording to the hardware counters launch for launch (the lessons'
/// CpuRecording tests), and, where the grader found the counters refused, giving a counter test
/// the CPU recording of its launches instead (kit::testing::CounterTest::measure).
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
#include "kit/recorded_launch.hpp"
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

/// The lesson's CPU kernel program of this tree, built beside this GPU test program
/// (`lesson05_student_gpu` -> `lesson05_student_cpu_kernel`); empty, with why in `error`, when
/// it cannot be found.
inline std::string cpu_kernel_program(std::string* error) {
  char self[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    *error = "cannot find this program's folder (/proc/self/exe)";
    return "";
  }
  std::string program(self, static_cast<std::size_t>(n));
  const std::string gpu = "_gpu";
  if (program.size() < gpu.size() ||
      program.compare(program.size() - gpu.size(), gpu.size(), gpu)) {
    *error = program + " is not a lesson's GPU test program (<lesson>_<tree>_gpu)";
    return "";
  }
  program.replace(program.size() - gpu.size(), gpu.size(), "_cpu_kernel");
  if (access(program.c_str(), X_OK) != 0) {
    const std::string name = program.substr(program.rfind('/') + 1);
    *error = program + " is not built: build the lesson's CPU tests too (target " +
             name.substr(0, name.find('_')) + "-cpu)";
    return "";
  }
  return program;
}

/// Runs the lesson's CPU kernel program (cpu_kernel_program) with `arguments` (each a word of
/// letters, digits and `*._:-=`) and `variables` (NAME=value, the value without a quote) set,
/// besides KIT_CPU_COUNTS_OUT, and returns the runs it logged. On a failure to run it, returns
/// nothing and says why in `error`. (The CPU tests' own verdicts do not matter here: a
/// starter's kernel is logged too.)
inline std::vector<CpuRecorded> run_cpu_kernel_program(const std::vector<std::string>& arguments,
                                                       const std::vector<std::string>& variables,
                                                       std::string* error) {
  std::vector<CpuRecorded> runs;
  const std::string program = cpu_kernel_program(error);
  if (program.empty()) {
    return runs;
  }
  char path[] = "/tmp/kit-cpu-counts-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    *error = "cannot make a temporary file";
    return runs;
  }
  close(fd);
  std::string command = "KIT_CPU_COUNTS_OUT='" + std::string(path) + "'";
  for (const std::string& v : variables) {
    const std::size_t eq = v.find('=');
    command += " " + v.substr(0, eq) + "='" + v.substr(eq + 1) + "'";
  }
  command += " '" + program + "'";
  for (const std::string& a : arguments) {
    command += " '" + a + "'";
  }
  const std::string shown = program.substr(program.rfind('/') + 1);
  const int status = std::system((command + " > /dev/null 2>&1").c_str());
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
    std::string args;
    for (const std::string& a : arguments) {
      args += " " + a;
    }
    *error = shown + args + " logged no run (it crashed, or its tests were renamed)";
  }
  return runs;
}

/// The runs the CPU tests `filter` (a GoogleTest filter) of the lesson's CPU kernel program
/// log.
inline std::vector<CpuRecorded> cpu_recorded_counts(const std::string& filter, std::string* error) {
  return run_cpu_kernel_program({"--gtest_filter=" + filter}, {}, error);
}

/// The name of the CPU kernel program's test that runs and logs the launches a GPU test asks
/// for ($KIT_CPU_RUNS): every lesson whose kernel runs on the CPU has one, disabled, so that it
/// runs only when asked.
inline constexpr const char* kRecordLaunchesTest = "CpuRecording.DISABLED_RequestedLaunches";

/// What the CPU run of each of `launches` recorded, in their order: each kernel run on the CPU on
/// a matrix of the launch's shape, of values of the CPU run's own (the shared-memory requests
/// of the lessons' matrix kernels depend on the shape alone). On a failure, returns nothing and
/// says why in `error`.
inline std::vector<CpuRecorded> record_launches(const std::vector<RecordedLaunch>& launches,
                                                std::string* error) {
  std::vector<CpuRecorded> runs = run_cpu_kernel_program(
      {std::string("--gtest_filter=") + kRecordLaunchesTest, "--gtest_also_run_disabled_tests"},
      {std::string(kRecordedLaunchesVariable) + "=" + launches_text(launches)}, error);
  if (runs.empty()) {
    return {};
  }
  const bool same = runs.size() == launches.size() && [&] {
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].kernel != launches[i].kernel || runs[i].rows != launches[i].rows ||
          runs[i].cols != launches[i].cols) {
        return false;
      }
    }
    return true;
  }();
  if (!same) {
    *error = "the CPU kernel program logged " + std::to_string(runs.size()) +
             " runs, not the launches asked for (" + launches_text(launches) + ")";
    return {};
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
