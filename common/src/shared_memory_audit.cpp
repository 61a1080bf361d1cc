// The shared-memory audit (kit/shared_memory_audit.hpp): CUPTI's callbacks on every kernel launch
// of a GPU test program, where KIT_SHARED_MEMORY_AUDIT names the file to write.
#include "kit/shared_memory_audit.hpp"

#include <cuda_runtime_api.h>
#include <cxxabi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#if KIT_HAVE_CUPTI_CALLBACKS
// The driver's launch parameters as CUPTI gives them (generated_cuda_meta.h) name the driver's
// older types too, which cuda.h declares only for the driver's own build. This file calls no
// driver function by name (only through cudaGetDriverEntryPointByVersion), so the names that
// define changes are not used here.
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_meta.h>
#include <generated_cuda_runtime_api_meta.h>
#endif

namespace kit {
namespace {

/// A kernel's name as C++ reads it ("lesson01::reverse_kernel(float const*, float*, int)"); the
/// symbol itself where it does not demangle (an extern "C" kernel).
std::string readable(const std::string& symbol) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
  std::string name = status == 0 && out ? std::string(out.get()) : symbol;
  for (char& c : name) {
    if (c == '\t' || c == '\n') {
      c = ' '; // one field of a tab-separated line
    }
  }
  return name;
}

/// The running test, `Suite.Name`; `-` outside a test (an environment's set-up).
std::string current_test() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  if (t == nullptr) {
    return "-";
  }
  return std::string(t->test_suite_name()) + "." + t->name();
}

/// Whose kernel a launch ran: the program's own (its CUDA runtime knows the function: the
/// lesson's, the tests', the kit's), or another's (a library that brings its own runtime, such as
/// cuBLAS, or a launch through the driver), whose kernels the library fits to the GPU itself.
enum class Origin { program, other };

const char* origin_name(Origin o) {
  return o == Origin::program ? "program" : "other";
}

/// One kernel's shared memory over the launches of one test.
struct Use {
  Origin origin = Origin::program;
  std::size_t static_bytes = 0;
  std::size_t dynamic_max = 0;
  std::size_t total_max = 0;
  unsigned long long launches = 0;
  bool measured = false; // a layer read its static size at least once
  std::string why;       // why it was not, while it was not
};

/// What the audit has seen, per test and kernel symbol; safe to call from any thread.
class Record {
public:
  /// A launch whose static size was read.
  void measured(Origin origin, const std::string& symbol, std::size_t static_bytes,
                std::size_t dynamic) {
    std::lock_guard<std::mutex> lock(mutex_);
    Use& u = uses_[{current_test(), symbol}];
    u.origin = origin;
    u.static_bytes = std::max(u.static_bytes, static_bytes);
    u.dynamic_max = std::max(u.dynamic_max, dynamic);
    u.total_max = std::max(u.total_max, static_bytes + dynamic);
    ++u.launches;
    u.measured = true;
  }

  /// A launch whose static size could not be read (the check counts the kernel as a failure
  /// unless another of its launches in the same test was read).
  void unmeasured(Origin origin, const std::string& symbol, std::size_t dynamic,
                  const std::string& why) {
    std::lock_guard<std::mutex> lock(mutex_);
    Use& u = uses_[{current_test(), symbol}];
    u.dynamic_max = std::max(u.dynamic_max, dynamic);
    if (!u.measured && u.why.empty()) {
      u.origin = origin;
      u.why = why;
    }
  }

  void refused(const std::string& why) {
    std::lock_guard<std::mutex> lock(mutex_);
    refusals_.push_back(why);
  }

  /// The block of lines this process appends (kit/shared_memory_audit.hpp has the format).
  std::string lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::ostringstream s;
    s << "# kit shared-memory audit 1\n";
    s << "process\t" << getpid() << "\t" << device_line() << "\n";
    for (const std::string& why : refusals_) {
      s << "refused\t" << getpid() << "\t" << why << "\n";
    }
    for (const auto& [key, u] : uses_) {
      const auto& [test, symbol] = key;
      if (u.measured) {
        s << "kernel\t" << test << "\t" << u.static_bytes << "\t" << u.dynamic_max << "\t"
          << u.total_max << "\t" << u.launches << "\t" << origin_name(u.origin) << "\t" << symbol
          << "\t" << readable(symbol) << "\n";
      } else {
        s << "unmeasured\t" << test << "\t" << origin_name(u.origin) << "\t" << symbol << "\t"
          << readable(symbol) << "\t" << u.why << "\n";
      }
    }
    return s.str();
  }

private:
  /// `<device name>\t<sm_NN>\t<opt-in shared memory per block>`, or what stopped reading it.
  static std::string device_line() {
    int device = 0;
    cudaDeviceProp p{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&p, device) != cudaSuccess) {
      cudaGetLastError();
      return "no device\t-\t0";
    }
    std::ostringstream s;
    s << p.name << "\tsm_" << p.major << p.minor << "\t" << p.sharedMemPerBlockOptin;
    return s.str();
  }

  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, Use> uses_;
  std::vector<std::string> refusals_;
};

#if KIT_HAVE_CUPTI_CALLBACKS

std::string cupti_text(const char* call, CUptiResult r) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  std::ostringstream m;
  m << call << " returned " << static_cast<int>(r) << " (" << (s ? s : "?") << ")";
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    m << ": another profiler (ncu, nsys, a tracing tool) is attached to this process";
  }
  return m.str();
}

/// The parameters of the launch the compiler writes for `kernel<<<...>>>` from CUDA 13 on
/// (__cudaLaunchKernel, declared in crt/device_functions.h): CUPTI gives a call's parameters in
/// the order of its declaration, and CUDA 13 publishes no struct for this one. The name the
/// runtime reads through `kernel` is held against CUPTI's symbol name, so a different layout
/// shows as an unmeasured kernel, never as a wrong size.
struct CompilerLaunchParams {
  cudaKernel_t kernel;
  dim3 grid;
  dim3 block;
  void** args;
  std::size_t shared_mem;
  cudaStream_t stream;
};

/// The runtime launches the audit reads, and the driver launches.
const CUpti_CallbackId kRuntimeLaunches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
#if CUDART_VERSION >= 13000
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
#endif
};
const CUpti_CallbackId kDriverLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

using FuncGetAttribute = CUresult(CUDAAPI*)(int*, CUfunction_attribute, CUfunction);
using FuncGetName = CUresult(CUDAAPI*)(const char**, CUfunction);

class Subscription {
public:
  explicit Subscription(Record& record) : record_(record) {
    // The driver's own queries, through the runtime (the kit does not link libcuda).
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuFuncGetAttribute", &p, 12000, cudaEnableDefault,
                                         &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess) {
      func_get_attribute_ = reinterpret_cast<FuncGetAttribute>(p);
    }
    if (cudaGetDriverEntryPointByVersion("cuFuncGetName", &p, 12030, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess) {
      func_get_name_ = reinterpret_cast<FuncGetName>(p);
    }
    cudaGetLastError();
    CUptiResult r = cuptiSubscribe(&subscriber_, &Subscription::callback, this);
    if (r != CUPTI_SUCCESS) {
      record_.refused(cupti_text("cuptiSubscribe", r));
      subscriber_ = nullptr;
      return;
    }
    for (CUpti_CallbackId id : kRuntimeLaunches) {
      enable(CUPTI_CB_DOMAIN_RUNTIME_API, id);
    }
    for (CUpti_CallbackId id : kDriverLaunches) {
      enable(CUPTI_CB_DOMAIN_DRIVER_API, id);
    }
  }

  ~Subscription() {
    if (subscriber_ != nullptr) {
      cuptiUnsubscribe(subscriber_);
    }
  }

  Subscription(const Subscription&) = delete;
  Subscription& operator=(const Subscription&) = delete;

private:
  void enable(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
    CUptiResult r = cuptiEnableCallback(1, subscriber_, domain, id);
    if (r != CUPTI_SUCCESS) {
      record_.refused(cupti_text("cuptiEnableCallback", r) + " for callback " +
                      std::to_string(static_cast<unsigned>(id)) + " of domain " +
                      std::to_string(static_cast<int>(domain)));
    }
  }

  static void CUPTIAPI callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                const void* data) {
    const auto* cb = static_cast<const CUpti_CallbackData*>(data);
    auto* s = static_cast<Subscription*>(self);
    // A runtime launch reaches the driver's launch inside it: that one is the same launch, so
    // the driver's layer reads only launches the runtime's layer could not (a library's
    // runtime launching its own kernels) and those made through the driver itself.
    thread_local std::vector<bool> runtime_launches; // read, per runtime launch in progress
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      if (cb->callbackSite == CUPTI_API_ENTER) {
        runtime_launches.push_back(s->runtime_launch(id, cb));
      } else if (!runtime_launches.empty()) {
        runtime_launches.pop_back();
      }
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cb->callbackSite == CUPTI_API_ENTER &&
               (runtime_launches.empty() || !runtime_launches.back())) {
      s->driver_launch(id, cb);
    }
  }

  /// A runtime launch: the kernel's static size from cudaFuncGetAttributes. Returns whether it
  /// was read (the program's runtime knows the function).
  bool runtime_launch(CUpti_CallbackId id, const CUpti_CallbackData* cb) {
    const void* func = nullptr;
    std::size_t dynamic = 0;
    switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000: {
      const auto* p = static_cast<const cudaLaunchKernel_v7000_params*>(cb->functionParams);
      func = p->func;
      dynamic = p->sharedMem;
      break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
      const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(cb->functionParams);
      func = p->func;
      dynamic = p->config != nullptr ? p->config->dynamicSmemBytes : 0;
      break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
      const auto* p =
          static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(cb->functionParams);
      func = p->func;
      dynamic = p->sharedMem;
      break;
    }
#if CUDART_VERSION >= 13000
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000: {
      const auto* p = static_cast<const CompilerLaunchParams*>(cb->functionParams);
      func = reinterpret_cast<const void*>(p->kernel); // a cudaKernel_t, as the runtime takes it
      dynamic = p->shared_mem;
      break;
    }
#endif
    default:
      return false;
    }
    std::string symbol = cb->symbolName != nullptr ? cb->symbolName : "";
    const char* name = nullptr;
    if (cudaFuncGetName(&name, func) != cudaSuccess || name == nullptr) {
      // Not a function of this program's runtime: a library's own runtime launching its
      // kernel. The driver's layer reads it, where the launch reaches the driver.
      cudaGetLastError(); // the audit's own error, never the program's
      record_.unmeasured(Origin::other, symbol.empty() ? "(unnamed)" : symbol, dynamic,
                         "launched by a runtime other than the program's (a library's)");
      return false;
    }
    if (symbol.empty()) {
      symbol = name;
    } else if (symbol != name) {
      record_.unmeasured(Origin::program, symbol, dynamic,
                         std::string("the launch's parameters name another kernel, ") + name);
      return true;
    }
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, func) != cudaSuccess) {
      record_.unmeasured(Origin::program, symbol, dynamic,
                         std::string("cudaFuncGetAttributes: ") +
                             cudaGetErrorString(cudaGetLastError()));
      return true;
    }
    record_.measured(Origin::program, symbol, attributes.sharedSizeBytes, dynamic);
    return true;
  }

  /// A launch the runtime's layer did not read (a library's, or one through the driver itself):
  /// the kernel's static size from CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES.
  void driver_launch(CUpti_CallbackId id, const CUpti_CallbackData* cb) {
    CUfunction f = nullptr;
    std::size_t dynamic = 0;
    switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(cb->functionParams);
      f = p->f;
      dynamic = p->sharedMemBytes;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(cb->functionParams);
      f = p->f;
      dynamic = p->config != nullptr ? p->config->sharedMemBytes : 0;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(cb->functionParams);
      f = p->f;
      dynamic = p->sharedMemBytes;
      break;
    }
    default:
      return;
    }
    std::string symbol = cb->symbolName != nullptr ? cb->symbolName : "";
    const char* name = nullptr;
    if (symbol.empty() && func_get_name_ != nullptr && func_get_name_(&name, f) == CUDA_SUCCESS &&
        name != nullptr) {
      symbol = name;
    }
    if (symbol.empty()) {
      symbol = "(unnamed)";
    }
    int bytes = 0;
    CUresult r = func_get_attribute_ != nullptr
                     ? func_get_attribute_(&bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)
                     : CUDA_ERROR_NOT_FOUND;
    if (r != CUDA_SUCCESS) {
      record_.unmeasured(Origin::other, symbol, dynamic,
                         "the driver did not read its static size (CUresult " +
                             std::to_string(static_cast<int>(r)) + ")");
      return;
    }
    record_.measured(Origin::other, symbol, static_cast<std::size_t>(bytes), dynamic);
  }

  Record& record_;
  CUpti_SubscriberHandle subscriber_ = nullptr;
  FuncGetAttribute func_get_attribute_ = nullptr;
  FuncGetName func_get_name_ = nullptr;
};

#else

/// A kit built without CUPTI cannot watch launches: the audit says so.
class Subscription {
public:
  explicit Subscription(Record& record) {
    record.refused("this kit was built without CUPTI (CUDA::cupti not found): it cannot watch "
                   "kernel launches");
  }
};

#endif

/// Subscribes when the tests start; appends the block of lines when they end.
class AuditEnvironment : public ::testing::Environment {
public:
  explicit AuditEnvironment(std::string path) : path_(std::move(path)) {}

  void SetUp() override { subscription_ = std::make_unique<Subscription>(record_); }

  void TearDown() override {
    subscription_.reset();
    const std::string text = record_.lines();
    if (std::FILE* f = std::fopen(path_.c_str(), "a")) {
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    } else {
      std::fprintf(stderr, "[kit-audit] cannot write %s (%s=%s)\n", path_.c_str(),
                   kSharedMemoryAuditVariable, path_.c_str());
    }
  }

private:
  std::string path_;
  Record record_;
  std::unique_ptr<Subscription> subscription_;
};

} // namespace

bool audit_shared_memory() {
  static const bool on = [] {
    const char* path = std::getenv(kSharedMemoryAuditVariable);
    if (path == nullptr || *path == '\0') {
      return false;
    }
    ::testing::AddGlobalTestEnvironment(new AuditEnvironment(path)); // GoogleTest owns it
    return true;
  }();
  return on;
}

namespace {
/// Every program this file is linked into registers the audit at start-up (kit_testing puts this
/// file's object on each of its programs' link lines: common/CMakeLists.txt).
[[maybe_unused]] const bool kAuditRegistered = audit_shared_memory();
} // namespace

} // namespace kit
