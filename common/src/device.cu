#include "kit/device.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <regex>
#include <sstream>

namespace kit {
namespace {

// A kernel built for this binary's architectures: if the GPU cannot run it, the build has
// no code for this GPU.
__global__ void probe_kernel(int* out) {
  if (out) {
    *out = 1;
  }
}

GpuStatus compute_status() {
  GpuStatus s;
  if (auto forced = env("KIT_FORCE_NO_GPU")) {
    s.reason = "no usable GPU: " + *forced + " (KIT_FORCE_NO_GPU)";
    return s;
  }
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    std::ostringstream m;
    m << "no usable GPU: " << cudaGetErrorString(err);
    if (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice) {
      m << " (no NVIDIA driver or device on this machine)";
    }
    s.reason = m.str();
    cudaGetLastError();
    return s;
  }
  if (count == 0) {
    s.reason = "no usable GPU: no CUDA device found";
    return s;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, s.device) != cudaSuccess) {
    s.reason = "no usable GPU: cannot read the device properties";
    cudaGetLastError();
    return s;
  }
  s.name = p.name;
  s.major = p.major;
  s.minor = p.minor;
  s.sm_count = p.multiProcessorCount;
  s.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  s.smem_per_sm = p.sharedMemPerMultiprocessor;
  s.smem_per_block_optin = p.sharedMemPerBlockOptin;
  cudaFuncAttributes attr{};
  const cudaError_t fe = cudaFuncGetAttributes(&attr, probe_kernel);
  if (fe != cudaSuccess) {
    std::ostringstream m;
    m << "no usable GPU: this build has no kernels for " << s.name << " (" << s.arch()
      << "): " << cudaGetErrorString(fe)
      << "; reconfigure with CMAKE_CUDA_ARCHITECTURES=" << s.major * 10 + s.minor;
    s.reason = m.str();
    cudaGetLastError();
    return s;
  }
  s.usable = true;
  return s;
}

} // namespace

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') {
    return std::nullopt;
  }
  return std::string(v);
}

bool small_mode() {
  const auto v = env("KIT_SMALL");
  return v && *v != "0";
}

std::string device_description() {
  const GpuStatus& g = gpu_status();
  if (!g.usable) {
    return "none (model only): " + g.reason;
  }
  return g.name + " (" + g.arch() + ", " + std::to_string(g.sm_count) + " SMs)";
}

std::string utc_date() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

namespace {

/// The value of `"key": "value"` in a small JSON file the course wrote, or "".
std::string json_text(const std::string& json, const std::string& key) {
  const std::regex re("\"" + key + "\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  std::smatch m;
  return std::regex_search(json, m, re) ? m[1].str() : std::string();
}

/// Whether the self-check record (KIT_SELF_CHECK) says the rules hold on this GPU.
bool verified_by_self_check(const GpuStatus& g) {
  const auto path = env("KIT_SELF_CHECK");
  if (!path) {
    return false;
  }
  std::ifstream in(*path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  const std::regex verified("\"verified\"\\s*:\\s*true");
  return std::regex_search(json, verified) && json_text(json, "gpu") == g.name &&
         json_text(json, "arch") == g.arch();
}

Capabilities compute_capabilities() {
  const GpuStatus& g = gpu_status();
  if (const auto profile = env("KIT_GPU_PROFILE")) {
    if (const GpuProfile* p = gpu_profile(*profile)) {
      Capabilities c = capabilities_of(p->compute_capability, p->shared_memory_per_block);
      c.arch = p->arch;
      c.simulated = p->arch;
      return c;
    }
  }
  Capabilities c = capabilities_of(g.major * 10 + g.minor, g.smem_per_block_optin);
  c.wide_rules = c.wide_rules || verified_by_self_check(g);
  return c;
}

} // namespace

const Capabilities& gpu_capabilities() {
  static const Capabilities capabilities = compute_capabilities();
  return capabilities;
}

std::optional<std::string> profile_problem() {
  const auto profile = env("KIT_GPU_PROFILE");
  if (!profile || gpu_profile(*profile)) {
    return std::nullopt;
  }
  std::string known;
  for (const GpuProfile& p : gpu_profiles()) {
    known += (known.empty() ? "" : ", ") + std::string(p.arch);
  }
  return "KIT_GPU_PROFILE=" + *profile + " is not a profile of common/gpu_profiles.json (" + known +
         ")";
}

bool wide_rules_verified() {
  return gpu_status().usable && gpu_capabilities().wide_rules;
}

const GpuStatus& gpu_status() {
  static const GpuStatus status = compute_status();
  return status;
}

} // namespace kit
