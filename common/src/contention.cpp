// Reads, through NVML when the driver provides it, whether the GPU is shared or throttled.
// NVML is opened at run time (dlopen), never linked: a machine without the driver must still
// load every test program.
#include <dlfcn.h>

#include <cuda_runtime_api.h>

#include <optional>
#include <sstream>
#include <string>

#include "kit/device.hpp"
#include "kit/timer.hpp"

namespace kit {
namespace {

using nvmlDevice = void*;
using NvmlInit = int (*)();
using NvmlByPci = int (*)(const char*, nvmlDevice*);
using NvmlProcesses = int (*)(nvmlDevice, unsigned int*, void*);
using NvmlReasons = int (*)(nvmlDevice, unsigned long long*);

constexpr int kNvmlSuccess = 0;
constexpr int kNvmlInsufficientSize = 7;
// Clock event reasons that mean the clocks are held down (nvml.h's values).
constexpr unsigned long long kSwPowerCap = 0x4;
constexpr unsigned long long kHwSlowdown = 0x8;
constexpr unsigned long long kSwThermal = 0x20;
constexpr unsigned long long kHwThermal = 0x40;
constexpr unsigned long long kHwPowerBrake = 0x80;

struct Nvml {
  void* lib = nullptr;
  nvmlDevice device = nullptr;
  NvmlProcesses processes = nullptr;
  NvmlReasons reasons = nullptr;
};

const Nvml& nvml() {
  static const Nvml n = [] {
    Nvml r;
    r.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!r.lib) {
      return r;
    }
    auto init = reinterpret_cast<NvmlInit>(dlsym(r.lib, "nvmlInit_v2"));
    auto by_pci = reinterpret_cast<NvmlByPci>(dlsym(r.lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    r.processes =
        reinterpret_cast<NvmlProcesses>(dlsym(r.lib, "nvmlDeviceGetComputeRunningProcesses_v3"));
    r.reasons =
        reinterpret_cast<NvmlReasons>(dlsym(r.lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (!r.reasons) {
      r.reasons =
          reinterpret_cast<NvmlReasons>(dlsym(r.lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    }
    char bus[64] = {};
    if (!init || !by_pci || init() != kNvmlSuccess ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, gpu_status().device) != cudaSuccess ||
        by_pci(bus, &r.device) != kNvmlSuccess) {
      cudaGetLastError();
      r.device = nullptr;
    }
    return r;
  }();
  return n;
}

} // namespace

std::optional<std::string> gpu_contention() {
  if (!gpu_status().usable) {
    return std::nullopt;
  }
  const Nvml& n = nvml();
  if (!n.device) {
    return std::nullopt;
  }
  std::ostringstream why;
  if (n.processes) {
    unsigned int count = 0;
    const int rc = n.processes(n.device, &count, nullptr);
    // This process holds a context, so more than one process means someone else is there.
    if ((rc == kNvmlSuccess || rc == kNvmlInsufficientSize) && count > 1) {
      why << count << " processes hold a context on the GPU (another one is using it)";
    }
  }
  if (n.reasons) {
    unsigned long long r = 0;
    if (n.reasons(n.device, &r) == kNvmlSuccess) {
      const char* held = (r & kHwThermal) || (r & kSwThermal) ? "thermal slowdown"
                         : (r & kHwPowerBrake)                ? "power-brake slowdown"
                         : (r & kHwSlowdown)                  ? "hardware slowdown"
                         : (r & kSwPowerCap)                  ? "power cap"
                                                              : nullptr;
      if (held) {
        why << (why.tellp() > 0 ? "; " : "") << "GPU clocks are held down (" << held << ")";
      }
    }
  }
  const std::string s = why.str();
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

} // namespace kit
