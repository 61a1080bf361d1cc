/// @file needs.hpp
/// @brief What a GPU test needs of its GPU (a lesson's `gpu` in its lesson.json, and more for
/// the tests its `tests` entries name), what a GPU offers (common/gpu_profiles.json's row of its
/// architecture), and the one sentence a test skips with when the GPU falls short:
/// "needs the TMA (sm_90 and later); this GPU is sm_86".
///
/// The grader decides the same from its own machine check before any student code runs
/// (tools/course/model/needs.py, with the same sentences). Host code only: no CUDA here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace kit {

/// What a test needs (0 and false: nothing).
struct Needs {
  int compute_capability = 0;              ///< major * 10 + minor: 90 for 9.0
  bool tma = false;                        ///< the tensor memory accelerator (cp.async.bulk.tensor)
  bool ldmatrix = false;                   ///< the ldmatrix instruction
  bool stmatrix = false;                   ///< the stmatrix instruction
  std::size_t shared_memory_per_block = 0; ///< bytes, static and dynamic
  bool wide_rules = false;    ///< the bank model's 8- and 16-byte rules verified on this GPU
  bool ldmatrix_rule = false; ///< the bank model's ldmatrix rule measured on this architecture
};

/// A GPU architecture the course describes (common/gpu_profiles.json).
struct GpuProfile {
  const char* arch;                    ///< "sm_86"
  const char* gpus;                    ///< "A10G, A40, RTX 30"
  int compute_capability;              ///< major * 10 + minor
  std::size_t shared_memory_per_block; ///< the most a block may opt in to, bytes
  std::size_t shared_memory_per_sm;    ///< bytes
  bool tma;                            ///< the tensor memory accelerator
  bool ldmatrix;                       ///< the ldmatrix instruction
  bool stmatrix;                       ///< the stmatrix instruction
  bool wide_rules;    ///< the bank model's 8- and 16-byte rules were measured on this architecture
  bool ldmatrix_rule; ///< and its ldmatrix rule
};

/// Every profile, by compute capability (kit/gpu_profiles.inc, which
/// course-admin regenerate writes from common/gpu_profiles.json).
inline const std::vector<GpuProfile>& gpu_profiles() {
  static const std::vector<GpuProfile> profiles = {
#include "kit/gpu_profiles.inc"
  };
  return profiles;
}

/// The profile named `arch` ("sm_75"), or nullptr.
inline const GpuProfile* gpu_profile(const std::string& arch) {
  for (const GpuProfile& p : gpu_profiles()) {
    if (arch == p.arch) {
      return &p;
    }
  }
  return nullptr;
}

/// What a GPU offers the course's tests.
struct Capabilities {
  std::string arch;                        ///< "sm_90"
  int compute_capability = 0;              ///< major * 10 + minor
  std::size_t shared_memory_per_block = 0; ///< the most a block may opt in to, bytes
  bool tma = false;                        ///< the tensor memory accelerator
  bool ldmatrix = false;                   ///< the ldmatrix instruction
  bool stmatrix = false;                   ///< the stmatrix instruction
  bool wide_rules = false;    ///< the bank model's 8- and 16-byte rules verified on this GPU
  bool ldmatrix_rule = false; ///< the bank model's ldmatrix rule measured on its architecture
  std::string simulated;      ///< the profile simulated (KIT_GPU_PROFILE), or empty
};

/// A GPU of compute capability `cc` with `shared_memory_per_block` bytes for a block: the
/// features of the highest profile at or below `cc` (an architecture the table does not list
/// has those of the one before it); the wide rules only where they were measured on `cc`
/// itself.
inline Capabilities capabilities_of(int cc, std::size_t shared_memory_per_block) {
  Capabilities c;
  c.arch = "sm_" + std::to_string(cc);
  c.compute_capability = cc;
  c.shared_memory_per_block = shared_memory_per_block;
  for (const GpuProfile& p : gpu_profiles()) {
    if (p.compute_capability <= cc) {
      c.tma = p.tma;
      c.ldmatrix = p.ldmatrix;
      c.stmatrix = p.stmatrix;
    }
    c.wide_rules = c.wide_rules || (p.compute_capability == cc && p.wide_rules);
    c.ldmatrix_rule = c.ldmatrix_rule || (p.compute_capability == cc && p.ldmatrix_rule);
  }
  return c;
}

namespace detail {

inline std::string kb(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g KB", static_cast<double>(bytes) / 1024.0);
  return buf;
}

/// The first profile with a feature ("sm_90"), for "sm_90 and later".
inline std::string first_with(bool GpuProfile::*feature) {
  for (const GpuProfile& p : gpu_profiles()) {
    if (p.*feature) {
      return p.arch;
    }
  }
  return "none";
}

/// Every profile with a feature ("sm_90, sm_100").
inline std::string archs_with(bool GpuProfile::*feature) {
  std::string archs;
  for (const GpuProfile& p : gpu_profiles()) {
    if (p.*feature) {
      archs += (archs.empty() ? "" : ", ") + std::string(p.arch);
    }
  }
  return archs.empty() ? "none" : archs;
}

} // namespace detail

/// The first need of `needs` that `gpu` does not meet, as one sentence, or nothing.
inline std::optional<std::string> unmet_need(const Needs& needs, const Capabilities& gpu) {
  const std::string here = "this GPU is " + gpu.arch;
  std::optional<std::string> why;
  if (needs.compute_capability > gpu.compute_capability) {
    const int cc = needs.compute_capability;
    why = "needs compute capability " + std::to_string(cc / 10) + "." + std::to_string(cc % 10) +
          " (sm_" + std::to_string(cc) + ") or later; " + here;
  } else if (needs.tma && !gpu.tma) {
    why = "needs the TMA (" + detail::first_with(&GpuProfile::tma) + " and later); " + here;
  } else if (needs.ldmatrix && !gpu.ldmatrix) {
    why = "needs ldmatrix (" + detail::first_with(&GpuProfile::ldmatrix) + " and later); " + here;
  } else if (needs.stmatrix && !gpu.stmatrix) {
    why = "needs stmatrix (" + detail::first_with(&GpuProfile::stmatrix) + " and later); " + here;
  } else if (needs.shared_memory_per_block > gpu.shared_memory_per_block) {
    why = "needs " + detail::kb(needs.shared_memory_per_block) + " of shared memory per block; " +
          here + ", which gives a block at most " + detail::kb(gpu.shared_memory_per_block);
  } else if (needs.wide_rules && !gpu.wide_rules) {
    why = "needs the bank model's 8- and 16-byte rules verified on this GPU; " + gpu.arch +
          " is not verified (course-admin self-check verifies them)";
  } else if (needs.ldmatrix_rule && !gpu.ldmatrix_rule) {
    why = "needs the bank model's ldmatrix rule, measured on " +
          detail::archs_with(&GpuProfile::ldmatrix_rule) + " only; " + here;
  }
  if (why && !gpu.simulated.empty()) {
    *why += " (simulated: KIT_GPU_PROFILE=" + gpu.simulated + ")";
  }
  return why;
}

/// Whether a GoogleTest name ("Suite.Name") matches a pattern where `*` stands for any run of
/// characters.
inline bool name_matches(const std::string& pattern, const std::string& name) {
  std::size_t p = 0, n = 0, star = std::string::npos, from = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      from = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star != std::string::npos) {
      p = star + 1;
      n = ++from;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

/// Tests that need more than their lesson: their names (patterns), and what they need.
struct TestNeeds {
  std::vector<std::string> tests; ///< GoogleTest names ("Suite.Name"), `*` for any characters
  Needs needs;                    ///< what they need besides their lesson's needs
};

/// What the test `name` needs: its lesson's needs, and more where an entry names it.
inline Needs needs_of(const Needs& lesson, const std::vector<TestNeeds>& tests,
                      const std::string& name) {
  Needs n = lesson;
  for (const TestNeeds& t : tests) {
    bool named = false;
    for (const std::string& pattern : t.tests) {
      named = named || name_matches(pattern, name);
    }
    if (!named) {
      continue;
    }
    n.compute_capability = std::max(n.compute_capability, t.needs.compute_capability);
    n.tma = n.tma || t.needs.tma;
    n.ldmatrix = n.ldmatrix || t.needs.ldmatrix;
    n.stmatrix = n.stmatrix || t.needs.stmatrix;
    n.shared_memory_per_block =
        std::max(n.shared_memory_per_block, t.needs.shared_memory_per_block);
    n.wide_rules = n.wide_rules || t.needs.wide_rules;
    n.ldmatrix_rule = n.ldmatrix_rule || t.needs.ldmatrix_rule;
  }
  return n;
}

} // namespace kit
