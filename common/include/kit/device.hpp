/// @file device.hpp
/// @brief Whether a usable GPU is here, and if not, why: the reason a GPU test skips with.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "kit/needs.hpp"

namespace kit {

/// What the course needs to know about the GPU it runs on.
struct GpuStatus {
  bool usable = false;                  ///< A device is present and runs this build's kernels.
  std::string reason;                   ///< Why not, when !usable ("no CUDA driver: ...").
  int device = 0;                       ///< CUDA device index used.
  std::string name;                     ///< e.g. "NVIDIA H100 80GB HBM3".
  int major = 0;                        ///< Compute capability, major.
  int minor = 0;                        ///< Compute capability, minor.
  int sm_count = 0;                     ///< Multiprocessors.
  int max_threads_per_sm = 0;           ///< Resident threads per SM.
  std::size_t smem_per_sm = 0;          ///< Shared memory per SM, bytes.
  std::size_t smem_per_block_optin = 0; ///< Largest shared memory a block can opt in to.

  /// "sm_90" style name of the architecture.
  std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
  /// Resident warps per SM.
  int max_warps_per_sm() const { return max_threads_per_sm / 32; }
};

/// The GPU status of this process, computed once. Never throws: a missing driver, no device,
/// or a GPU this build has no kernels for all give usable == false and a reason.
/// Setting the environment variable `KIT_FORCE_NO_GPU=<reason>` simulates a machine without a
/// usable GPU (for testing the skip paths).
const GpuStatus& gpu_status();

/// True when the bank model's 8- and 16-byte rules are verified on this GPU: they were measured
/// on its architecture (common/gpu_profiles.json, `wide_rules`: docs/measurements.md), or the
/// course's self-check (`course-admin self-check`) verified them on this GPU and its record,
/// which the environment variable KIT_SELF_CHECK names, says so (the GPU's name and
/// architecture). Elsewhere the counter tests of those widths skip with "needs the bank
/// model's 8- and 16-byte rules verified on this GPU". Under a simulated profile, the profile's
/// row decides.
bool wide_rules_verified();

/// What this GPU offers the course's tests (kit/needs.hpp): its compute capability and the
/// shared memory a block may opt in to, the features of its architecture's profile
/// (common/gpu_profiles.json) and whether the wide rules are verified on it. The environment
/// variable `KIT_GPU_PROFILE=sm_75` simulates a profile's GPU for the needs alone (the kit's own
/// tests use it; the grader's sandbox never passes it): every need is checked against that row,
/// and everything else still runs on the GPU that is here. Meaningful only when
/// gpu_status().usable.
const Capabilities& gpu_capabilities();

/// Why KIT_GPU_PROFILE cannot be simulated (a name no profile has), or nothing.
std::optional<std::string> profile_problem();

/// The GPU as measurement headers name it ("NVIDIA H200 (sm_90, 132 SMs)"), or
/// "none (model only): <reason>" without a usable one.
std::string device_description();

/// Today's date (UTC) as YYYY-MM-DD, for measurement headers.
std::string utc_date();

/// True when the environment asks for a small, quick run (KIT_SMALL=1): the sanitizer run
/// sets it. Correctness tests shrink their sizes; counter and timing tests skip.
bool small_mode();

/// The value of an environment variable, if set and not empty.
std::optional<std::string> env(const char* name);

} // namespace kit
