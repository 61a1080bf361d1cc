#include "kit/counters.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "kit/device.hpp"
#include "probe_kernels.hpp"

#if KIT_HAVE_RANGE_PROFILER
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#endif

namespace kit {
namespace {

std::atomic<int> g_open_sessions{0};
/// The session CounterSession::keep() holds between counter tests (owned; null when none).
CounterSession* g_kept = nullptr;

#if KIT_HAVE_RANGE_PROFILER
// Order matters: values are read back by index.
const char* const kMetrics[] = {
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};
constexpr std::size_t kNumMetrics = sizeof(kMetrics) / sizeof(kMetrics[0]);
constexpr std::size_t kMaxRanges = CounterSession::kMaxKernels;

/// A CUPTI failure: the call, the result code and its text.
struct CuptiFailure : std::runtime_error {
  CuptiFailure(const char* call, CUptiResult r) : std::runtime_error(text(call, r)), result(r) {}
  static std::string text(const char* call, CUptiResult r) {
    const char* s = nullptr;
    cuptiGetResultString(r, &s);
    std::ostringstream m;
    m << call << " returned " << static_cast<int>(r) << " (" << (s ? s : "?") << ")";
    return m.str();
  }
  CUptiResult result;
};

void check(CUptiResult r, const char* call) {
  if (r != CUPTI_SUCCESS) {
    throw CuptiFailure(call, r);
  }
}
#define KIT_CUPTI(call) check((call), #call)

/// The refusal text for a CUPTI result that means "counters are not available here".
std::string refusal_for(const CuptiFailure& f) {
  switch (f.result) {
  case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
  case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    return "counters restricted to administrators (NVreg_RestrictProfilingToAdminUsers=1): " +
           std::string(f.what());
  case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    return "another profiler (ncu, nsys, a tracing tool) is attached to this process: " +
           std::string(f.what());
  case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    return "counters not supported on a virtualised GPU: " + std::string(f.what());
  case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    return "counters not supported on a MIG instance: " + std::string(f.what());
  case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    return "counters not supported under WSL: " + std::string(f.what());
  case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    return "counters not supported on a CMP device: " + std::string(f.what());
  case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
    return "counters not supported with confidential computing: " + std::string(f.what());
  default:
    return "hardware counters unavailable: " + std::string(f.what());
  }
}

/// A CUPTI parameter struct: every field zero, structSize set (the API's versioning).
template <class Params>
Params cupti_params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

using CtxGetCurrent = CUresult (*)(CUcontext*);

/// The shared-memory counters from the values of kMetrics, in its order.
SharedCounters counters_from(const std::vector<double>& values, int kernels) {
  auto u = [&](int i) {
    return static_cast<std::uint64_t>(values[static_cast<std::size_t>(i)] + 0.5);
  };
  SharedCounters out;
  out.kernels = kernels;
  out.sass.load_requests = u(0);
  out.sass.load_wavefronts = u(1);
  out.sass.store_requests = u(2);
  out.sass.store_wavefronts = u(3);
  out.load_wavefronts_l1tex = u(4);
  out.store_wavefronts_l1tex = u(5);
  out.load_bank_conflicts = u(6);
  out.store_bank_conflicts = u(7);
  return out;
}

/// The shared-memory counters summed over the kernels of a launch (one value list each).
SharedCounters summed(const std::vector<std::vector<double>>& ranges) {
  std::vector<double> sums(kNumMetrics, 0.0);
  for (const std::vector<double>& r : ranges) {
    for (std::size_t i = 0; i < sums.size(); ++i) {
      sums[i] += r[i];
    }
  }
  return counters_from(sums, static_cast<int>(ranges.size()));
}

#endif

} // namespace

struct CounterSession::Impl {
  std::vector<std::string> metric_names; ///< What measure_values() reads, in order.
  bool shared_metrics = true;            ///< True when metric_names are kMetrics.
  std::string refusal;
  std::string chip;
  bool counted = false;
#if KIT_HAVE_RANGE_PROFILER
  bool profiler_initialized = false;
  CUcontext ctx = nullptr;
  CUpti_Profiler_Host_Object* host = nullptr;
  CUpti_RangeProfiler_Object* range = nullptr;
  std::vector<std::uint8_t> config;
  std::vector<std::uint8_t> counter_data;

  void open();
  void close();
  /// The metrics of each kernel `launch` runs, in launch order.
  std::vector<std::vector<double>> measure(const std::function<void()>& launch);
#endif
};

#if KIT_HAVE_RANGE_PROFILER
void CounterSession::Impl::open() {
  int runtime = 0, driver = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  if (driver < 12060) {
    std::ostringstream m;
    m << "the CUDA driver (" << driver / 1000 << "." << driver % 1000 / 10
      << ") is too old for the Range Profiler API (needs 12.6 or newer)";
    refusal = m.str();
    return;
  }
  if (cudaFree(nullptr) != cudaSuccess) { // make the primary context current
    cudaGetLastError();
    refusal = "cannot create a CUDA context for the profiler";
    return;
  }
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &q) !=
          cudaSuccess ||
      fn == nullptr) {
    cudaGetLastError();
    refusal = "the CUDA driver does not provide cuCtxGetCurrent";
    return;
  }
  if (reinterpret_cast<CtxGetCurrent>(fn)(&ctx) != CUDA_SUCCESS || ctx == nullptr) {
    refusal = "no current CUDA context for the profiler";
    return;
  }

  auto init =
      cupti_params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  KIT_CUPTI(cuptiProfilerInitialize(&init));
  profiler_initialized = true;

  auto sup = cupti_params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  sup.cuDevice = gpu_status().device;
  sup.api = CUPTI_PROFILER_RANGE_PROFILING;
  KIT_CUPTI(cuptiProfilerDeviceSupported(&sup));
  if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    refusal = sup.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "counters not supported (or "
                                                                   "disabled) on this vGPU"
              : sup.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                  ? "counters not supported with confidential computing"
              : sup.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "counters not supported on a "
                                                                    "CMP device"
              : sup.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "counters not supported "
                                                                    "under WSL"
              : sup.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "counters not supported "
                                                                    "with SLI"
              : sup.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                  ? "counters not supported on " + gpu_status().arch()
                  : "counters not supported on this device";
    return;
  }

  auto name =
      cupti_params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  name.deviceIndex = static_cast<std::size_t>(gpu_status().device);
  KIT_CUPTI(cuptiDeviceGetChipName(&name));
  chip = name.pChipName;

  auto avail = cupti_params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx;
  KIT_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  KIT_CUPTI(cuptiProfilerGetCounterAvailability(&avail));

  auto hi = cupti_params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hi.pChipName = chip.c_str();
  hi.pCounterAvailabilityImage = availability.data();
  KIT_CUPTI(cuptiProfilerHostInitialize(&hi));
  host = hi.pHostObject;

  std::vector<const char*> metrics;
  for (const std::string& m : metric_names) {
    metrics.push_back(m.c_str());
  }
  auto add = cupti_params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host;
  add.ppMetricNames = metrics.data();
  add.numMetrics = metrics.size();
  KIT_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));

  auto cs = cupti_params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  cs.pHostObject = host;
  KIT_CUPTI(cuptiProfilerHostGetConfigImageSize(&cs));
  config.resize(cs.configImageSize);
  auto ci = cupti_params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  ci.pHostObject = host;
  ci.configImageSize = config.size();
  ci.pConfigImage = config.data();
  KIT_CUPTI(cuptiProfilerHostGetConfigImage(&ci));

  auto en = cupti_params<CUpti_RangeProfiler_Enable_Params>(
      CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  en.ctx = ctx;
  KIT_CUPTI(cuptiRangeProfilerEnable(&en));
  range = en.pRangeProfilerObject;

  auto ds = cupti_params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  ds.pRangeProfilerObject = range;
  ds.pMetricNames = metrics.data();
  ds.numMetrics = metrics.size();
  ds.maxNumOfRanges = kMaxRanges;
  ds.maxNumRangeTreeNodes = kMaxRanges;
  KIT_CUPTI(cuptiRangeProfilerGetCounterDataSize(&ds));
  counter_data.resize(ds.counterDataSize);
}

std::vector<std::vector<double>>
CounterSession::Impl::measure(const std::function<void()>& launch) {
  auto di = cupti_params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  di.pRangeProfilerObject = range;
  di.counterDataSize = counter_data.size();
  di.pCounterData = counter_data.data();
  KIT_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&di));

  auto sc = cupti_params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  sc.pRangeProfilerObject = range;
  sc.configSize = config.size();
  sc.pConfig = config.data();
  sc.counterDataImageSize = counter_data.size();
  sc.pCounterDataImage = counter_data.data();
  sc.range = CUPTI_AutoRange;
  sc.replayMode = CUPTI_KernelReplay;
  sc.maxRangesPerPass = kMaxRanges;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  KIT_CUPTI(cuptiRangeProfilerSetConfig(&sc));

  auto st =
      cupti_params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  st.pRangeProfilerObject = range;
  KIT_CUPTI(cuptiRangeProfilerStart(&st));
  std::string launch_error;
  try {
    launch();
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      launch_error = std::string("the measured launch failed: ") + cudaGetErrorString(e);
    }
  } catch (const std::exception& e) {
    launch_error = e.what();
  }
  auto sp =
      cupti_params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  sp.pRangeProfilerObject = range;
  KIT_CUPTI(cuptiRangeProfilerStop(&sp));
  if (!launch_error.empty()) {
    throw std::runtime_error(launch_error);
  }

  auto dd = cupti_params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  dd.pRangeProfilerObject = range;
  KIT_CUPTI(cuptiRangeProfilerDecodeData(&dd));
  if (dd.numOfRangeDropped > 0) {
    throw std::runtime_error("the profiler dropped " + std::to_string(dd.numOfRangeDropped) +
                             " kernel(s): a measured launch may run at most " +
                             std::to_string(kMaxRanges) + " kernels");
  }

  auto info = cupti_params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  KIT_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));

  std::vector<const char*> metrics;
  for (const std::string& m : metric_names) {
    metrics.push_back(m.c_str());
  }
  std::vector<std::vector<double>> ranges;
  for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
    std::vector<double> values(metrics.size(), 0.0);
    auto ev = cupti_params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = host;
    ev.pCounterDataImage = counter_data.data();
    ev.counterDataImageSize = counter_data.size();
    ev.rangeIndex = r;
    ev.ppMetricNames = metrics.data();
    ev.numMetrics = metrics.size();
    ev.pMetricValues = values.data();
    KIT_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&ev));
    ranges.push_back(std::move(values));
  }
  return ranges;
}

void CounterSession::Impl::close() {
  if (range) {
    auto d = cupti_params<CUpti_RangeProfiler_Disable_Params>(
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    d.pRangeProfilerObject = range;
    cuptiRangeProfilerDisable(&d);
    range = nullptr;
  }
  if (host) {
    auto d = cupti_params<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    d.pHostObject = host;
    cuptiProfilerHostDeinitialize(&d);
    host = nullptr;
  }
  if (profiler_initialized) {
    auto d = cupti_params<CUpti_Profiler_DeInitialize_Params>(
        CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    cuptiProfilerDeInitialize(&d);
    profiler_initialized = false;
  }
}
#endif

CounterSession::CounterSession() : CounterSession(std::vector<std::string>{}) {}

CounterSession::CounterSession(std::vector<std::string> metrics) : impl_(std::make_unique<Impl>()) {
  close_kept(); // one session at a time: a kept one closes before this one opens
  impl_->shared_metrics = metrics.empty();
#if KIT_HAVE_RANGE_PROFILER
  if (impl_->shared_metrics) {
    metrics.assign(kMetrics, kMetrics + kNumMetrics);
  }
#endif
  impl_->metric_names = std::move(metrics);
  if (auto forced = env("KIT_COUNTERS_REFUSE")) {
    impl_->refusal = "counters refused: " + *forced + " (KIT_COUNTERS_REFUSE)";
    return;
  }
  if (small_mode()) {
    impl_->refusal = "counters are not read in the small (sanitizer) mode, KIT_SMALL=1";
    return;
  }
  if (!gpu_status().usable) {
    impl_->refusal = gpu_status().reason;
    return;
  }
#if KIT_HAVE_RANGE_PROFILER
  try {
    impl_->open();
    if (impl_->refusal.empty() && impl_->shared_metrics) {
      // End to end on a probe kernel: one store and one load request of one wavefront each.
      unsigned* out = nullptr;
      if (cudaMalloc(reinterpret_cast<void**>(&out), 32 * sizeof(unsigned)) != cudaSuccess) {
        throw std::runtime_error("cudaMalloc failed");
      }
      SharedCounters c;
      try {
        c = summed(impl_->measure([&] { launch_counter_probe(out); }));
      } catch (...) {
        cudaFree(out);
        throw;
      }
      cudaFree(out);
      if (c.sass.load_requests != 1 || c.sass.store_requests != 1) {
        std::ostringstream m;
        m << "hardware counters read implausible values on a probe kernel (" << c.sass.load_requests
          << " load and " << c.sass.store_requests << " store requests, expected 1 and 1)";
        impl_->refusal = m.str();
      }
    }
  } catch (const CuptiFailure& f) {
    impl_->refusal = refusal_for(f);
  } catch (const std::exception& e) {
    impl_->refusal = std::string("hardware counters unavailable: ") + e.what();
  }
  if (!impl_->refusal.empty()) {
    impl_->close();
  } else {
    ++g_open_sessions;
    impl_->counted = true;
  }
#else
  impl_->refusal = "this CUDA toolkit is too old for the Range Profiler API (needs CUDA 12.6 or "
                   "newer; configure with a newer toolkit to read counters)";
#endif
}

CounterSession::~CounterSession() {
#if KIT_HAVE_RANGE_PROFILER
  impl_->close();
#endif
  if (impl_->counted) {
    --g_open_sessions;
  }
}

bool CounterSession::ok() const {
  return impl_->refusal.empty();
}
const std::string& CounterSession::refusal() const {
  return impl_->refusal;
}
const std::string& CounterSession::chip() const {
  return impl_->chip;
}

std::vector<std::vector<double>> CounterSession::ranges(const std::function<void()>& launch) {
  if (!ok()) {
    throw std::runtime_error("CounterSession::measure on a refused session: " + impl_->refusal);
  }
#if KIT_HAVE_RANGE_PROFILER
  try {
    return impl_->measure(launch);
  } catch (const CuptiFailure& f) {
    throw std::runtime_error(std::string("profiler failure: ") + f.what());
  }
#else
  (void)launch;
  throw std::runtime_error("no Range Profiler API in this build");
#endif
}

SharedCounters CounterSession::measure(const std::function<void()>& launch) {
  if (!impl_->shared_metrics) {
    throw std::logic_error("CounterSession::measure on a session of other metrics: use "
                           "measure_values");
  }
#if KIT_HAVE_RANGE_PROFILER
  return summed(ranges(launch));
#else
  ranges(launch);
  return {};
#endif
}

std::vector<SharedCounters> CounterSession::measure_each(const std::function<void()>& launch) {
  if (!impl_->shared_metrics) {
    throw std::logic_error("CounterSession::measure_each on a session of other metrics: use "
                           "measure_values");
  }
  std::vector<SharedCounters> out;
#if KIT_HAVE_RANGE_PROFILER
  for (const std::vector<double>& r : ranges(launch)) {
    out.push_back(counters_from(r, 1));
  }
#else
  ranges(launch);
#endif
  return out;
}

std::vector<double> CounterSession::measure_values(const std::function<void()>& launch,
                                                   int* kernels) {
  const std::vector<std::vector<double>> per_kernel = ranges(launch);
  std::vector<double> sums(impl_->metric_names.size(), 0.0);
  for (const std::vector<double>& r : per_kernel) {
    for (std::size_t i = 0; i < sums.size(); ++i) {
      sums[i] += r[i];
    }
  }
  if (kernels) {
    *kernels = static_cast<int>(per_kernel.size());
  }
  return sums;
}

bool CounterSession::active() {
  return g_open_sessions.load() > 0;
}

void CounterSession::keep(std::unique_ptr<CounterSession> session) {
  close_kept();
  if (session != nullptr && session->ok() && session->impl_->shared_metrics) {
    g_kept = session.release();
  }
}

std::unique_ptr<CounterSession> CounterSession::take_kept() {
  if (env("KIT_COUNTERS_REFUSE") || small_mode()) {
    close_kept();
    return nullptr;
  }
  std::unique_ptr<CounterSession> taken(g_kept);
  g_kept = nullptr;
  return taken;
}

void CounterSession::close_kept() {
  delete g_kept;
  g_kept = nullptr;
}

} // namespace kit
