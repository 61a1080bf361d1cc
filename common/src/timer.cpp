#include "kit/timer.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/cuda_check.hpp"
#include "kit/device.hpp"

namespace kit {
namespace {

Timing summarize(std::vector<float> samples) {
  std::sort(samples.begin(), samples.end());
  Timing t;
  const std::size_t n = samples.size();
  t.median_ms = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  t.min_ms = samples.front();
  t.max_ms = samples.back();
  return t;
}

float time_once(const Launch& l, cudaStream_t stream, Event& start, Event& stop) {
  start.record(stream);
  l.run(stream);
  CUDA_CHECK_LAUNCH();
  stop.record(stream);
  stop.synchronize();
  return stop.ms_since(start);
}

void refuse_while_profiling() {
  CounterSession::close_kept(); // the one kept between counter tests: no test is using it
  if (CounterSession::active()) {
    throw std::logic_error("kit timer: a counter session is active in this process; the "
                           "profiler replays and serialises kernels, so timings would be "
                           "meaningless. Close the session before timing.");
  }
}

std::string fmt(double v, int digits = 2) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}

/// Why a slowdown cannot show on this GPU.
std::string too_few_warps(const Slowdown& s, const std::string& what) {
  return "only " + std::to_string(s.warps_per_sm) + " warps per SM fit " + what +
         " on this GPU (at least " + std::to_string(kMinWarpsPerSmForSlowdown) +
         " are needed for the slowdown to show)";
}

/// The timed launches of each run: `repeats` (at least 10) spread over `runs` (at least 1).
std::vector<int> timed_per_run(const TimerOptions& opt) {
  const int runs = std::max(opt.runs, 1);
  const int repeats = std::max(opt.repeats, 10);
  std::vector<int> n(static_cast<std::size_t>(runs), repeats / runs);
  for (int i = 0; i < repeats % runs; ++i) {
    ++n[static_cast<std::size_t>(i)];
  }
  return n;
}

/// One run of `l`: a launch untimed (it follows another kernel, or an idle GPU, and starts
/// late), then `timed` launches timed into `samples`.
void run_once(const Launch& l, int timed, std::vector<float>& samples, Event& start, Event& stop) {
  time_once(l, nullptr, start, stop);
  for (int i = 0; i < timed; ++i) {
    samples.push_back(time_once(l, nullptr, start, stop));
  }
}

} // namespace

int blocks_per_sm(const void* kernel, int block_threads, std::size_t smem_bytes) {
  int blocks = 0;
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, smem_bytes));
  return blocks;
}

int saturating_blocks(const void* kernel, int block_threads, std::size_t smem_bytes) {
  return std::max(1, blocks_per_sm(kernel, block_threads, smem_bytes)) * gpu_status().sm_count;
}

Timing time_launch(const Launch& l, const TimerOptions& opt) {
  refuse_while_profiling();
  Event start, stop;
  std::vector<float> samples;
  for (int timed : timed_per_run(opt)) {
    run_once(l, timed, samples, start, stop);
  }
  return summarize(samples);
}

Slowdown measure_ratio(const Launch& a, const Launch& b, const TimerOptions& opt) {
  refuse_while_profiling();
  Event start, stop;
  // A's runs and B's take turns, so a change of clock or a neighbour's work touches both
  // alike; within a run every timed launch follows one of its own kernel.
  std::vector<float> ta, tb;
  for (int timed : timed_per_run(opt)) {
    run_once(a, timed, ta, start, stop);
    run_once(b, timed, tb, start, stop);
  }
  Slowdown s;
  s.a = summarize(ta);
  s.b = summarize(tb);
  s.ratio = s.b.median_ms > 0 ? s.a.median_ms / s.b.median_ms : 0;
  return s;
}

Slowdown measure_slowdown(const Launch& a, const Launch& b, const TimerOptions& opt) {
  refuse_while_profiling();
  if (a.block_threads != b.block_threads || a.smem_bytes != b.smem_bytes) {
    std::ostringstream m;
    m << "kit timer: '" << a.name << "' (" << a.block_threads << " threads, " << a.smem_bytes
      << " B shared) and '" << b.name << "' (" << b.block_threads << " threads, " << b.smem_bytes
      << " B shared) must share block shape and shared-memory size";
    throw std::logic_error(m.str());
  }
  const int occ_a = blocks_per_sm(a.kernel, a.block_threads, a.smem_bytes);
  const int occ_b = blocks_per_sm(b.kernel, b.block_threads, b.smem_bytes);
  if (occ_a != occ_b) {
    std::ostringstream m;
    m << "kit timer: '" << a.name << "' fits " << occ_a << " blocks per SM but '" << b.name
      << "' fits " << occ_b << " (registers?): compare kernels of equal occupancy";
    throw std::logic_error(m.str());
  }
  Slowdown s = measure_ratio(a, b, opt);
  s.blocks_per_sm = occ_a;
  s.warps_per_sm = occ_a * ((a.block_threads + 31) / 32);
  return s;
}

SlowdownVerdict judge_slowdown(const Launch& a, const Launch& b, double model_ratio,
                               const TimerOptions& opt) {
  SlowdownVerdict v;
  v.model_ratio = model_ratio;
  v.band = slowdown_band(model_ratio);
  const std::string what = "'" + a.name + "' over '" + b.name + "'";
  const auto timed = time_with_policy([&] { return measure_slowdown(a, b, opt); },
                                      [&](const Slowdown& s) {
                                        TimingAttempt t;
                                        t.met = v.band.contains(s.ratio);
                                        t.near_miss = true; // a busy GPU explains any miss
                                        t.spread = std::max(s.a.spread(), s.b.spread());
                                        if (std::abs(model_ratio - 1.0) > 1e-9 &&
                                            s.warps_per_sm < kMinWarpsPerSmForSlowdown) {
                                          t.unsupported = too_few_warps(s, what);
                                        }
                                        return t;
                                      },
                                      gpu_contention);
  v.kind = timed.decision.kind;
  v.last = timed.measurements.back();
  v.attempts = timed.decision.attempts;
  if (v.kind == Verdict::unsupported) {
    v.message = timed.decision.reason;
    return v;
  }
  std::ostringstream m;
  m << what << ": measured " << fmt(v.last.ratio) << "x, model " << fmt(model_ratio) << "x (band "
    << fmt(v.band.low) << "-" << fmt(v.band.high) << ", fidelity " << fmt(v.fidelity())
    << "), medians " << fmt(v.last.a.median_ms, 4) << " ms / " << fmt(v.last.b.median_ms, 4)
    << " ms, " << v.last.warps_per_sm << " warps/SM, " << v.attempts << " measurement(s)";
  if (v.kind == Verdict::inconclusive) {
    m << ". Inconclusive, not failed: " << timed.decision.reason << ".";
  } else if (v.kind == Verdict::fail) {
    if (v.last.ratio < v.band.low) {
      m << ". Slower than the model predicts for A, or B is slower than it should be: is "
           "the launch big enough to keep the shared-memory pipe busy, and are the loads "
           "still there (the compiler may drop or merge them: compare the request counts)?";
    } else {
      m << ". More slowdown than the model predicts: more wavefronts than you think (check "
           "the counters), or A does other, slower work than B.";
    }
  }
  v.message = m.str();
  return v;
}

AtLeastVerdict judge_at_least(const Launch& a, const Launch& b,
                              const std::function<double(const Slowdown&)>& value, double bar,
                              const std::string& what, const TimerOptions& opt) {
  AtLeastVerdict v;
  v.bar = bar;
  const auto timed = time_with_policy([&] { return measure_ratio(a, b, opt); },
                                      [&](const Slowdown& s) {
                                        TimingAttempt t;
                                        t.met = value(s) >= bar;
                                        t.near_miss = value(s) >= kNearMissFraction * bar;
                                        t.spread = std::max(s.a.spread(), s.b.spread());
                                        return t;
                                      },
                                      gpu_contention);
  v.kind = timed.decision.kind;
  v.attempts = timed.decision.attempts;
  v.measured = timed.measurements.front();
  for (const Slowdown& s : timed.measurements) {
    if (value(s) > value(v.measured)) {
      v.measured = s;
    }
  }
  v.best = value(v.measured);
  std::ostringstream m;
  m << what << ": " << fmt(v.best) << " (at least " << fmt(bar) << " expected); medians '" << a.name
    << "' " << fmt(v.measured.a.median_ms, 4) << " ms, '" << b.name << "' "
    << fmt(v.measured.b.median_ms, 4) << " ms, " << v.attempts << " measurement(s)";
  if (v.kind == Verdict::inconclusive) {
    m << ". Inconclusive, not failed: " << timed.decision.reason;
  }
  v.message = m.str();
  return v;
}

} // namespace kit
