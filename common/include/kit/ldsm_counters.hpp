/// @file ldsm_counters.hpp
/// @brief The hardware counters of ldmatrix (SASS LDSM) requests, read in a profiler session
/// of their own.
///
/// The shared-memory session (kit/counters.hpp) reads the LDS/STS metrics; ldmatrix has
/// metrics of its own (the `_op_ldsm` family). They are read here, in a second configuration,
/// so that the many counter tests that never issue an ldmatrix pay no replay passes for them.
/// What the H100 showed about which metrics see LDSM traffic is in kit/ldmatrix.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kit/counters.hpp"

namespace kit {

/// What the counters read for the ldmatrix requests of one launch.
struct LdsmCounters {
  std::uint64_t requests = 0;   ///< smsp__sass_inst_executed_op_ldsm: LDSM instructions.
  std::uint64_t wavefronts = 0; ///< smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm
  std::uint64_t bank_conflicts =
      0;           ///< smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm
  int kernels = 0; ///< Kernels (profiler ranges) in the launch.
};

/// The metrics an LdsmSession reads, in LdsmCounters' order.
inline std::vector<std::string> ldsm_metrics() {
  return {"smsp__sass_inst_executed_op_ldsm.sum",
          "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
          "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"};
}

/// A profiler session of the ldmatrix metrics. Refusals as for CounterSession.
class LdsmSession {
public:
  LdsmSession() : session_(ldsm_metrics()) {}

  /// True when counters can be read.
  bool ok() const { return session_.ok(); }
  /// Why counters cannot be read (empty when ok()).
  const std::string& refusal() const { return session_.refusal(); }

  /// Runs `launch` under the profiler and returns its ldmatrix counters.
  LdsmCounters measure(const std::function<void()>& launch) {
    LdsmCounters c;
    const std::vector<double> v = session_.measure_values(launch, &c.kernels);
    auto u = [&](std::size_t i) { return static_cast<std::uint64_t>(v[i] + 0.5); };
    c.requests = u(0);
    c.wavefronts = u(1);
    c.bank_conflicts = u(2);
    return c;
  }

private:
  CounterSession session_;
};

} // namespace kit
