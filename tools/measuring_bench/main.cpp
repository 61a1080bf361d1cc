// measuring-bench: why most bank-conflict demos show 1x to 5x. For each of lesson 10's four
// small setups, the kit's saturating timer and the lesson's harness: the slowdowns at strides 2
// and 32 against stride 1 as measured, beside the counters' wavefront ratios, with the
// reason for each gap. Then one warp's dependent-load latency beside the saturating
// throughput, by stride.
//
//   measuring-bench                                  tables on standard output
//   measuring-bench --setups-csv FILE --latency-csv FILE
//   measuring-bench --built-from                     the tree whose harness it times
//
// Without a GPU it says why and exits 77. Bad arguments: one line, exit status 2; a failure: 1.
//
// A lesson program, built once per tree (course_add_lesson_program): measuring-bench times
// your lesson 10's harness, measuring-bench-solution (in a build with the reference solutions)
// the solution's.
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "built_from.hpp"
#include "cli.hpp"
#include "kit/buffer.hpp"
#include "kit/counters.hpp"
#include "kit/cuda_check.hpp"
#include "kit/device.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/pattern.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/timer.hpp"

namespace {

struct Options {
  std::string setups_csv, latency_csv, command;
};

/// One row of the setups table.
struct SetupRow {
  std::string setup, like;
  std::optional<double> measured2, measured32, counters2, counters32;
  std::string why;
};

using kit::csv_field;
using kit::fixed;

constexpr const char* kUsage =
    "usage: measuring-bench [--setups-csv FILE] [--latency-csv FILE] [--built-from]\n"
    "Times lesson 10's four small setups, the kit's saturating timer and the lesson's harness at\n"
    "strides 2 and 32 beside the counters, and one warp's dependent-load latency beside the\n"
    "saturating throughput, by stride; tables on standard output, or CSV into FILE.\n"
    "--built-from names the tree whose lesson 10 (and so whose harness) it was linked with.\n";

/// The note that says whose harness the harness row times: the exercise of the tree whose
/// lesson 10 library this program links.
std::string harness_note() {
  return "the harness row: lessons/10_measuring_right's probe, conflict over twin, timed by "
         "run_harness() of " +
         course_tools::built_from("exercise.cu");
}

double wavefronts(const kit::SharedCounters& c) {
  return static_cast<double>(c.sass.load_wavefronts + c.sass.store_wavefronts);
}

/// Ratio of the counters' wavefronts of setup `s` at `stride` over stride 1 (per request:
/// every stride issues the same requests).
std::optional<double> setup_counter_ratio(kit::CounterSession* session, lesson10::Setup s,
                                          int stride) {
  if (session == nullptr) {
    return std::nullopt;
  }
  const kit::SharedCounters a = session->measure([&] { lesson10::run_setup_once(s, stride); });
  const kit::SharedCounters b = session->measure([&] { lesson10::run_setup_once(s, 1); });
  if (a.sass.load_requests != b.sass.load_requests ||
      a.sass.store_requests != b.sass.store_requests) {
    throw std::runtime_error("setup '" + lesson10::setup_name(s) +
                             "': strides issued different "
                             "requests");
  }
  return wavefronts(a) / wavefronts(b);
}

const char* why(lesson10::Setup s) {
  switch (s) {
  case lesson10::Setup::one_access_per_thread:
    return "a store and a load a thread between a launch and a global write: launching 32768 "
           "one-warp blocks and writing 4 MiB take the time, shared memory a sliver of it";
  case lesson10::Setup::one_warp_launches:
    return "three requests a launch: the launch itself (microseconds) is what the events time";
  case lesson10::Setup::one_warp_loop:
    return "one warp waits for every load before its store: each extra wavefront adds about 2 "
           "cycles to a load's latency instead of costing a whole pipe cycle";
  case lesson10::Setup::barrier_block:
    return "four warps on one SM of many, a barrier every step and the RNG set-up inside the "
           "timed kernel: waiting, not the pipe, sets the pace";
  }
  return "";
}

/// The kit's saturating timer: pattern `stride` against stride 1, and the counters' ratio.
SetupRow saturating_row(kit::CounterSession* session) {
  SetupRow r{"saturating timer (the kit)",
             "",
             {},
             {},
             {},
             {},
             "every SM full of warps, each keeping loads in flight: the shared-memory pipe is "
             "the bottleneck, so time follows wavefronts"};
  const kit::Pattern base = kit::strided_pattern(4, 1);
  for (int stride : {2, 32}) {
    const kit::Pattern p = kit::strided_pattern(4, static_cast<unsigned>(stride));
    kit::PatternBench a(p), b(base);
    std::optional<double> counters;
    if (session != nullptr) {
      const kit::SharedCounters ca = session->measure([&] { a.run(2, 1); });
      const kit::SharedCounters cb = session->measure([&] { b.run(2, 1); });
      // Loads: both benches fill their shared memory with the same stores.
      counters = static_cast<double>(ca.sass.load_wavefronts) /
                 static_cast<double>(cb.sass.load_wavefronts);
    }
    std::optional<double> measured;
    if (!kit::CounterSession::active()) {
      const kit::PatternPair pair = kit::saturating_pair(a, b);
      measured = kit::measure_slowdown(pair.a, pair.b).ratio;
    }
    (stride == 2 ? r.measured2 : r.measured32) = measured;
    (stride == 2 ? r.counters2 : r.counters32) = counters;
  }
  return r;
}

void print_setups(std::ostream& out, const Options& o, const std::vector<SetupRow>& rows,
                  const std::vector<std::string>& notes, bool csv) {
  if (csv) {
    kit::MeasurementTable table{o.command,
                                {},
                                notes,
                                "setup,like,measured_2way,measured_32way,counters_2way,"
                                "counters_32way,why",
                                {}};
    for (const SetupRow& r : rows) {
      table.rows.push_back(csv_field(r.setup) + "," + csv_field(r.like) + "," +
                           fixed(r.measured2, 2, "x") + "," + fixed(r.measured32, 2, "x") + "," +
                           fixed(r.counters2, 2, "x") + "," + fixed(r.counters32, 2, "x") + "," +
                           csv_field(r.why));
    }
    kit::write_measurement_csv(out, table);
    return;
  }
  out << "device: " << kit::device_description() << "\n";
  out << "setup                              2-way  32-way  counters 2 / 32\n";
  for (const SetupRow& r : rows) {
    char line[256];
    std::snprintf(line, sizeof line, "%-33s %6s %7s  %6s / %6s\n", r.setup.c_str(),
                  fixed(r.measured2, 2, "x").c_str(), fixed(r.measured32, 2, "x").c_str(),
                  fixed(r.counters2, 2, "x").c_str(), fixed(r.counters32, 2, "x").c_str());
    out << line << "    " << r.why << "\n";
  }
  for (const std::string& n : notes) {
    out << "note: " << n << "\n";
  }
}

struct LatencyRow {
  int stride = 0, wavefronts = 0;
  double latency = 0, latency_ratio = 0, throughput_ratio = 0;
};

void print_latency(std::ostream& out, const Options& o, const std::vector<LatencyRow>& rows,
                   const std::vector<std::string>& notes, bool csv) {
  if (csv) {
    kit::MeasurementTable table{
        o.command,
        {},
        notes,
        "stride,wavefronts,latency_cycles,latency_vs_stride_1,throughput_vs_stride_1",
        {}};
    for (const LatencyRow& r : rows) {
      table.rows.push_back(std::to_string(r.stride) + "," + std::to_string(r.wavefronts) + "," +
                           fixed(r.latency, 1) + "," + fixed(r.latency_ratio, 2, "x") + "," +
                           fixed(r.throughput_ratio, 2, "x"));
    }
    kit::write_measurement_csv(out, table);
    return;
  }
  out << "stride  wavefronts  latency (cycles)  latency ratio  throughput ratio\n";
  for (const LatencyRow& r : rows) {
    char line[160];
    std::snprintf(line, sizeof line, "%6d  %10d  %16.1f  %12.2fx  %15.2fx\n", r.stride,
                  r.wavefronts, r.latency, r.latency_ratio, r.throughput_ratio);
    out << line;
  }
  for (const std::string& n : notes) {
    out << "note: " << n << "\n";
  }
}

Options parse(int argc, char** argv) {
  Options o;
  course_tools::Args args(argc, argv);
  // How to take the tables again: where each went reads FILE.
  o.command = args.recorded(course_tools::kProgram, {}, {"--setups-csv", "--latency-csv"});
  while (!args.done()) {
    const std::string a = args.next();
    if (a == "--setups-csv") {
      course_tools::once(!o.setups_csv.empty(), a);
      o.setups_csv = args.value(a);
    } else if (a == "--latency-csv") {
      course_tools::once(!o.latency_csv.empty(), a);
      o.latency_csv = args.value(a);
    } else if (a == "--built-from") {
      std::printf("%s\n", harness_note().c_str());
      std::exit(0);
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      throw course_tools::unknown(a);
    }
  }
  return o;
}

void write(const std::string& path, const std::function<void(std::ostream&)>& print) {
  if (path.empty()) {
    print(std::cout);
    return;
  }
  std::ofstream f(path);
  if (!f) {
    throw std::runtime_error("cannot write '" + path + "'");
  }
  print(f);
}

int run(const Options& o) {
  if (!kit::gpu_status().usable) {
    std::printf("%s: skipped: %s\n", course_tools::kProgram, kit::gpu_status().reason.c_str());
    return 77;
  }
  std::vector<std::string> notes = {
      "measured: time at stride 2 or 32 over time at stride 1 (floats), each setup timed as its "
      "demo times it; counters: wavefronts at that stride over wavefronts at stride 1, one "
      "launch each",
      harness_note()};
  std::vector<SetupRow> rows;
  const char* like[] = {"a notebook's no/2-way/32-way benchmark",
                        "a minimal full/no/same-address demo",
                        "a one-warp offset experiment (bank-conflicts OFFSET)",
                        "a float demo with curand and a barrier"};
  int k = 0;
  for (lesson10::Setup s : lesson10::kSetups) {
    SetupRow r{lesson10::setup_name(s), like[k++], {}, {}, {}, {}, why(s)};
    const double base = lesson10::time_setup(s, 1);
    r.measured2 = lesson10::time_setup(s, 2) / base;
    r.measured32 = lesson10::time_setup(s, 32) / base;
    rows.push_back(r);
  }
  rows.push_back(saturating_row(nullptr));
  SetupRow harness{"the lesson's harness (events, occupancy API)",        "", {}, {}, {}, {},
                   "the same as the kit's timer, written in the exercise"};
  harness.measured32 = lesson10::run_harness(lesson10::plan_harness()).ratio();
  rows.push_back(harness);

  // The latency table's timings, before any counter session opens.
  std::vector<LatencyRow> latency;
  const kit::Pattern base = kit::strided_pattern(4, 1);
  const double one = lesson10::chain_cycles_per_load(1);
  for (int stride : {1, 2, 4, 8, 16, 32}) {
    LatencyRow r;
    r.stride = stride;
    const kit::Pattern p = kit::strided_pattern(4, static_cast<unsigned>(stride));
    r.wavefronts = kit::wavefronts(p.access);
    r.latency = lesson10::chain_cycles_per_load(stride);
    r.latency_ratio = r.latency / one;
    kit::PatternBench a(p), b(base);
    const kit::PatternPair pair = kit::saturating_pair(a, b);
    r.throughput_ratio = kit::measure_slowdown(pair.a, pair.b).ratio;
    latency.push_back(r);
  }
  const std::vector<std::string> latency_notes = {
      "latency: one warp, each load's address the value the previous load returned, clock64() "
      "cycles per load; throughput: every warp of a saturating launch issues the load (the "
      "kit's pattern bench), time over stride 1"};

  {
    kit::CounterSession session;
    if (session.ok()) {
      for (std::size_t i = 0; i < 4; ++i) {
        rows[i].counters2 = setup_counter_ratio(&session, lesson10::kSetups[i], 2);
        rows[i].counters32 = setup_counter_ratio(&session, lesson10::kSetups[i], 32);
      }
      const SetupRow sat = saturating_row(&session);
      rows[4].counters2 = sat.counters2;
      rows[4].counters32 = sat.counters32;
      const lesson10::ProbeLaunch l{2, 256, 4};
      kit::DeviceBuffer<float> sink(1);
      const auto probe_wavefronts = [&](lesson10::Probe p) {
        const kit::SharedCounters c =
            session.measure([&] { lesson10::launch_probe(p, l, sink.get()); });
        return static_cast<double>(c.sass.load_wavefronts) /
               static_cast<double>(c.sass.load_requests);
      };
      rows[5].counters32 =
          probe_wavefronts(lesson10::Probe::conflict) / probe_wavefronts(lesson10::Probe::twin);
    } else {
      notes.push_back("counter columns empty: " + session.refusal());
    }
  }
  if (auto busy = kit::gpu_contention()) {
    notes.push_back("timings may be off: " + *busy);
  }
  write(o.setups_csv,
        [&](std::ostream& out) { print_setups(out, o, rows, notes, !o.setups_csv.empty()); });
  write(o.latency_csv, [&](std::ostream& out) {
    print_latency(out, o, latency, latency_notes, !o.latency_csv.empty());
  });
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const course_tools::UsageError& e) {
    std::fprintf(stderr, "%s: %s\n", course_tools::kProgram, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: measuring failed: %s\n", course_tools::kProgram, e.what());
    return 1;
  }
}
