/// @file device.hpp
/// @brief Whether a usable GPU is here, and if not, why: the reason a GPU test skips with.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

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

/// Architectures (major * 10 + minor) on which the 8- and 16-byte phase rules of the bank
/// model were read from the counters. Elsewhere, counter tests of those widths skip with
/// "rule not verified on sm_XY" until someone measures them (run the kit's model-against-counters
/// suite there and add the architecture when it passes).
inline constexpr int kWideRulesVerifiedArchs[] = {90};

/// True when the 8- and 16-byte rules were verified on this GPU's architecture.
bool wide_rules_verified();

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
