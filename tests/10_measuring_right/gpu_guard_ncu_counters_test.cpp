// Nsight Compute and the kit read the same counters: `ncu` profiles one launch of the probe
// (this program, started again under ncu, runs only that launch) and its requests and
// wavefronts equal what the kit's in-process counters read for the same launch. Skips, with
// the reason, where ncu is not installed or may not read the counters.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/testing.hpp"

namespace {

/// The launch both profilers measure.
constexpr lesson10::ProbeLaunch kNcuLaunch{2, 64, 2};
/// Set in the environment of the program ncu starts: it runs kNcuLaunch and exits.
constexpr const char* kNcuTargetVariable = "LESSON10_NCU_TARGET";

/// The metrics asked of ncu, each with the kit's reading of it.
const std::vector<std::string>& ncu_metrics() {
  static const std::vector<std::string> m = {
      "smsp__sass_inst_executed_op_shared_ld.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "smsp__sass_inst_executed_op_shared_st.sum",
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"};
  return m;
}

void run_probe_once() {
  kit::DeviceBuffer<float> sink(1);
  lesson10::launch_probe(lesson10::Probe::conflict, kNcuLaunch, sink.get());
  CUDA_CHECK(cudaDeviceSynchronize());
}

/// Under ncu (kNcuTargetVariable set) the program runs the probe once and exits before any
/// test starts: a GoogleTest environment, so the CUDA runtime has every kernel registered.
class NcuTarget : public ::testing::Environment {
public:
  void SetUp() override {
    if (std::getenv(kNcuTargetVariable) != nullptr) {
      run_probe_once();
      std::fflush(stdout);
      std::exit(0);
    }
  }
};
[[maybe_unused]] ::testing::Environment* const kNcuTarget =
    ::testing::AddGlobalTestEnvironment(new NcuTarget);

std::string find_ncu() {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream s(path);
    std::string dir;
    while (std::getline(s, dir, ':')) {
      candidates.push_back(dir + "/ncu");
    }
  }
  for (const char* root : {std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH")}) {
    if (root != nullptr) {
      candidates.push_back(std::string(root) + "/bin/ncu");
    }
  }
  candidates.push_back("/usr/local/cuda/bin/ncu");
  for (const std::string& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) {
      return c;
    }
  }
  return "";
}

std::string self_path() {
  std::vector<char> buf(4096);
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  return n > 0 ? std::string(buf.data(), static_cast<std::size_t>(n)) : "";
}

/// The fields of one CSV line of ncu's (quoted, comma-separated).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

TEST(DemoNcuAgrees, WithTheKitsCountersOnTheProbe) {
  KIT_REQUIRE_GPU();
  const std::string ncu = find_ncu();
  if (ncu.empty()) {
    GTEST_SKIP() << "ncu (Nsight Compute's command line) is not installed here, or not on PATH";
  }
  const std::string self = self_path();
  ASSERT_FALSE(self.empty()) << "cannot read /proc/self/exe";
  std::string metrics;
  for (const std::string& m : ncu_metrics()) {
    metrics += (metrics.empty() ? "" : ",") + m;
  }
  const std::string command =
      std::string(kNcuTargetVariable) + "=1 '" + ncu + "' --csv --metrics " + metrics +
      " --kernel-name regex:column_reads_kernel --launch-count 1 '" + self + "' 2>&1";
  std::printf("[lesson10-ncu] %s\n", command.c_str());
  // No profiler of this process beside ncu's: the session an earlier counter test kept closes.
  kit::CounterSession::close_kept();
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr) << "cannot start: " << command;
  std::string output;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) {
    output += buf;
  }
  const int status = pclose(pipe);

  std::map<std::string, double> ncu_values;
  std::vector<std::string> header;
  std::stringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '"') {
      continue;
    }
    const std::vector<std::string> f = csv_fields(line);
    if (header.empty()) {
      header = f;
      continue;
    }
    std::size_t name = header.size(), value = header.size();
    for (std::size_t i = 0; i < header.size(); ++i) {
      name = header[i] == "Metric Name" ? i : name;
      value = header[i] == "Metric Value" ? i : value;
    }
    if (name < f.size() && value < f.size()) {
      std::string v;
      for (char c : f[value]) {
        if (c != ',') {
          v += c;
        }
      }
      ncu_values[f[name]] = std::strtod(v.c_str(), nullptr);
    }
  }
  if (ncu_values.empty()) {
    for (const char* refusal : {"ERR_NVGPUCTRPERM", "permission", "not supported"}) {
      if (output.find(refusal) != std::string::npos) {
        GTEST_SKIP() << "ncu may not read the counters here: " << output.substr(0, 600);
      }
    }
    FAIL() << "ncu (exit status " << status << ") printed no metric:\n" << output;
  }

  kit::CounterSession session;
  if (!session.ok()) {
    GTEST_SKIP() << session.refusal();
  }
  const kit::SharedCounters kit_counts = session.measure(run_probe_once);
  const std::vector<std::pair<std::string, std::uint64_t>> pairs = {
      {ncu_metrics()[0], kit_counts.sass.load_requests},
      {ncu_metrics()[1], kit_counts.sass.load_wavefronts},
      {ncu_metrics()[2], kit_counts.sass.store_requests},
      {ncu_metrics()[3], kit_counts.sass.store_wavefronts},
      {ncu_metrics()[4], kit_counts.load_bank_conflicts}};
  for (const auto& [metric, kit_value] : pairs) {
    ASSERT_TRUE(ncu_values.count(metric)) << "ncu printed no " << metric << ":\n" << output;
    std::printf("[lesson10-ncu] %s: ncu %.0f, kit %llu\n", metric.c_str(), ncu_values[metric],
                static_cast<unsigned long long>(kit_value));
    EXPECT_EQ(ncu_values[metric], static_cast<double>(kit_value)) << metric;
  }
  // And both equal the model's trace of the launch.
  const kit::SharedCounts model =
      lesson10::probe_trace(lesson10::Probe::conflict, kNcuLaunch).expected();
  kit::testing::report("probe under ncu and the kit", kit_counts, model);
  EXPECT_TRUE(kit::testing::counts_match(kit_counts, model));
}

} // namespace
