// bank-conflicts: for one element type and a list of strides (or one lane-offset list), print
// the bank model's wavefronts per request, the hardware counters' wavefronts per request, and
// the slowdown measured against stride 1 in a saturating launch (the median of three passes
// over the rows), as a table, CSV or JSON.
//
//   bank-conflicts --type float --sweep 40:48
//   bank-conflicts --type half --strides 5,7,9 --csv
//   bank-conflicts --type float --offsets 0,20,40,...   (32 byte offsets: one custom row)
//   bank-conflicts --type float --index '(l%4)*s + l/4' --sweep 0:33   (your own pattern: lane l
//                  reads element EXPR, one row per value of s)
//
// Without a GPU (or with counters refused) the measured columns stay empty and the output
// says why. Bad arguments: a one-line error and exit status 2; a failure while measuring: 1.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"
#include "expression.hpp"
#include "kit/bank_model.hpp"
#include "kit/counters.hpp"
#include "kit/device.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/timer.hpp"

namespace {

using course_tools::UsageError;
using kit::csv_field;
using kit::fixed;

constexpr const char* kUsage =
    "usage: bank-conflicts --type float|half|double|float4|u8\n"
    "                      (--stride N | --strides N,N,... | --sweep FIRST:LAST | --offsets "
    "O0,...,O31)\n"
    "                      [--index EXPR] [--store] [--csv | --json] [--output FILE] "
    "[--no-timing] [--no-counters]\n"
    "Strides are in elements; --sweep includes both ends; --offsets are the 32 lanes' byte\n"
    "offsets (one custom row). --index EXPR: lane l reads element EXPR, an expression in l and\n"
    "s (bank-map's syntax) with s the stride's value, e.g. --index '(l%4)*s + l/4' --sweep 0:33.\n"
    "Prints model wavefronts per request, counter wavefronts per\n"
    "request and the slowdown against stride 1 measured in a saturating launch (the median of\n"
    "three passes over the rows).\n";

struct Options {
  std::string type;
  int elem_bytes = 0;
  std::vector<unsigned> strides;
  std::optional<std::vector<unsigned>> offsets;
  std::string index; // an expression in l and s, or empty for the plain stride l * s
  kit::SharedOp op = kit::SharedOp::load;
  enum class Format { table, csv, json } format = Format::table;
  std::string output;
  bool timing = true;
  bool counters = true;
  std::string command;
};

/// Strides and offsets: non-negative integers below a billion.
constexpr long long kMaxValue = 999999999;

unsigned parse_unsigned(const std::string& s, const std::string& what) {
  return static_cast<unsigned>(course_tools::parse_int(s, what, 0, kMaxValue));
}

std::vector<unsigned> parse_list(const std::string& s, const std::string& what) {
  std::vector<unsigned> v;
  for (const std::string& item : course_tools::split_list(s, what)) {
    v.push_back(parse_unsigned(item, what));
  }
  return v;
}

int elem_bytes_of(const std::string& type) {
  if (type == "u8")
    return 1;
  if (type == "half")
    return 2;
  if (type == "float")
    return 4;
  if (type == "double")
    return 8;
  if (type == "float4")
    return 16;
  throw UsageError("--type: unknown type '" + type + "' (float, half, double, float4, u8)");
}

Options parse(int argc, char** argv) {
  Options o;
  course_tools::Args args(argc, argv);
  // The command as recorded in CSV/JSON headers: how to reproduce the numbers (where the
  // output went is not part of that).
  o.command = args.recorded("bank-conflicts", {"--output", "-o"});
  bool have_rows = false;
  auto rows_once = [&](const std::string& flag) {
    if (have_rows) {
      throw UsageError(flag + ": give only one of --stride, --strides, --sweep, --offsets");
    }
    have_rows = true;
  };
  while (!args.done()) {
    const std::string a = args.next();
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--type") {
      o.type = args.value(a);
      o.elem_bytes = elem_bytes_of(o.type);
    } else if (a == "--stride") {
      rows_once(a);
      o.strides = {parse_unsigned(args.value(a), a)};
    } else if (a == "--strides") {
      rows_once(a);
      o.strides = parse_list(args.value(a), a);
    } else if (a == "--sweep") {
      rows_once(a);
      const std::string v = args.value(a);
      const auto colon = v.find(':');
      if (colon == std::string::npos) {
        throw UsageError("--sweep: '" + v + "' is not FIRST:LAST");
      }
      const unsigned first = parse_unsigned(v.substr(0, colon), a);
      const unsigned last = parse_unsigned(v.substr(colon + 1), a);
      if (last < first || last - first > 4096) {
        throw UsageError("--sweep: '" + v + "' must have FIRST <= LAST, at most 4096 apart");
      }
      for (unsigned s = first; s <= last; ++s) {
        o.strides.push_back(s);
      }
    } else if (a == "--offsets") {
      rows_once(a);
      o.offsets = parse_list(args.value(a), a);
      if (o.offsets->size() != static_cast<std::size_t>(kit::kWarpSize)) {
        throw UsageError("--offsets: " + std::to_string(o.offsets->size()) +
                         " offsets given, a warp has 32 lanes");
      }
    } else if (a == "--index") {
      o.index = args.value(a);
    } else if (a == "--store") {
      o.op = kit::SharedOp::store;
    } else if (a == "--csv") {
      o.format = Options::Format::csv;
    } else if (a == "--json") {
      o.format = Options::Format::json;
    } else if (a == "--output" || a == "-o") {
      o.output = args.value(a);
    } else if (a == "--no-timing") {
      o.timing = false;
    } else if (a == "--no-counters") {
      o.counters = false;
    } else {
      throw course_tools::unknown(a);
    }
  }
  if (o.type.empty()) {
    throw UsageError("--type is required (float, half, double, float4, u8)");
  }
  if (!have_rows) {
    throw UsageError("give one of --stride, --strides, --sweep, --offsets");
  }
  if (!o.index.empty() && o.offsets) {
    throw UsageError("--index: give strides (the values of s), not --offsets");
  }
  for (unsigned s : o.strides) {
    if (!o.index.empty()) {
      break; // the pattern's own extent is checked when it is built
    }
    if (static_cast<unsigned long long>(s) * 31 * o.elem_bytes + o.elem_bytes > 200 * 1024) {
      throw UsageError("--stride " + std::to_string(s) + ": " + o.type +
                       " lanes that far apart do not fit in shared memory");
    }
  }
  return o;
}

/// `text` with every `s` that stands alone (not part of a longer name) replaced by `(value)`.
std::string with_s(const std::string& text, unsigned value) {
  std::string out;
  const auto is_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool alone = text[i] == 's' && (i == 0 || !is_name(text[i - 1])) &&
                       (i + 1 == text.size() || !is_name(text[i + 1]));
    out += alone ? "(" + std::to_string(value) + ")" : std::string(1, text[i]);
  }
  return out;
}

/// Lane l reads (or writes) element EXPR(l, s) of --index: one row of a pattern sweep.
kit::Pattern index_pattern(const Options& o, unsigned s) {
  kit::Pattern p;
  p.name = o.type + " " + o.index + ", s = " + std::to_string(s);
  p.op = o.op;
  p.access.width = o.elem_bytes;
  try {
    const bank_map::Expression e(with_s(o.index, s));
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      const std::int64_t element = e.at(lane);
      if (element < 0 || element * o.elem_bytes + o.elem_bytes > 200 * 1024) {
        throw UsageError("--index: s = " + std::to_string(s) + ", lane " + std::to_string(lane) +
                         ": element " + std::to_string(element) +
                         " is outside the shared memory a block may have");
      }
      p.access.address[lane] = static_cast<std::uint32_t>(element * o.elem_bytes);
    }
  } catch (const bank_map::ExpressionError& e) {
    throw UsageError("--index '" + o.index + "': " + e.what());
  }
  return p;
}

/// The type column of the output: the element type, and the --index expression if there is one.
std::string type_label(const Options& o) {
  return o.index.empty() ? o.type : o.type + " [" + o.index + "]";
}

struct Row {
  std::string label; // the stride, or "custom"
  kit::Pattern pattern;
  int model = 0;
  std::optional<double> counter;
  std::optional<double> slowdown;
  double model_slowdown = 0;
};

void print(std::ostream& out, const Options& o, const std::vector<Row>& rows,
           const std::vector<std::string>& notes) {
  const char* op = o.op == kit::SharedOp::store ? "store" : "load";
  if (o.format == Options::Format::csv) {
    kit::MeasurementTable table{o.command,
                                {{"access", op}},
                                notes,
                                "type,stride,model_wavefronts,counter_wavefronts,slowdown,"
                                "model_slowdown",
                                {}};
    for (const Row& r : rows) {
      table.rows.push_back(csv_field(type_label(o)) + "," + r.label + "," +
                           std::to_string(r.model) + "," + fixed(r.counter, 2) + "," +
                           fixed(r.slowdown, 3) + "," + fixed(r.model_slowdown, 3));
    }
    kit::write_measurement_csv(out, table);
    return;
  }
  if (o.format == Options::Format::json) {
    auto esc = [](const std::string& s) {
      std::string e;
      for (char c : s) {
        if (c == '"' || c == '\\')
          e += '\\';
        e += c;
      }
      return e;
    };
    auto num = [](std::optional<double> v, int d) { return v ? fixed(v, d) : std::string("null"); };
    out << "{\"device\": \"" << esc(kit::device_description()) << "\", \"date\": \""
        << kit::utc_date() << "\", \"command\": \"" << esc(o.command) << "\", \"type\": \""
        << esc(type_label(o)) << "\", \"access\": \"" << op << "\", \"notes\": [";
    for (std::size_t i = 0; i < notes.size(); ++i) {
      out << (i ? ", " : "") << "\"" << esc(notes[i]) << "\"";
    }
    out << "], \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      out << (i ? ", " : "") << "{\"stride\": \"" << r.label
          << "\", \"model_wavefronts\": " << r.model
          << ", \"counter_wavefronts\": " << num(r.counter, 2)
          << ", \"slowdown\": " << num(r.slowdown, 3)
          << ", \"model_slowdown\": " << fixed(r.model_slowdown, 3) << "}";
    }
    out << "]}\n";
    return;
  }
  out << type_label(o) << " " << op << "s, device: " << kit::device_description() << "\n";
  out << "  stride   model wavefronts   counter wavefronts   slowdown   model slowdown\n";
  for (const Row& r : rows) {
    char line[160];
    std::snprintf(line, sizeof line, "  %6s   %16d   %18s   %8s   %14s\n", r.label.c_str(), r.model,
                  r.counter ? fixed(r.counter, 2).c_str() : "-",
                  r.slowdown ? (fixed(r.slowdown, 2) + "x").c_str() : "-",
                  (fixed(r.model_slowdown, 2) + "x").c_str());
    out << line;
  }
  for (const auto& n : notes) {
    out << "note: " << n << "\n";
  }
}

int run(const Options& o) {
  std::vector<Row> rows;
  const kit::Pattern baseline = kit::strided_pattern(o.elem_bytes, 1, o.op);
  if (o.offsets) {
    Row r;
    r.label = "custom";
    r.pattern.name = o.type + " custom offsets";
    r.pattern.op = o.op;
    r.pattern.access.width = o.elem_bytes;
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      r.pattern.access.address[lane] = (*o.offsets)[lane];
    }
    rows.push_back(r);
  } else {
    for (unsigned s : o.strides) {
      Row r;
      r.label = std::to_string(s);
      r.pattern =
          o.index.empty() ? kit::strided_pattern(o.elem_bytes, s, o.op) : index_pattern(o, s);
      rows.push_back(r);
    }
  }
  for (Row& r : rows) {
    const kit::BankReport rep = kit::analyze(r.pattern.access, o.op);
    if (!rep.ok()) {
      throw UsageError("--offsets: lane " + std::to_string(rep.error_lane) + ": " +
                       kit::to_string(rep.error) + " (width " + std::to_string(o.elem_bytes) + ")");
    }
    r.model = rep.wavefronts;
    r.model_slowdown = kit::model_ratio(r.pattern, baseline);
  }

  std::vector<std::string> notes;
  const kit::GpuStatus& gpu = kit::gpu_status();
  if (!gpu.usable) {
    notes.push_back("measured columns empty: " + gpu.reason);
  } else {
    if (o.counters) {
      kit::CounterSession session;
      if (!session.ok()) {
        notes.push_back("counter column empty: " + session.refusal());
      } else {
        constexpr int kBlocks = 2, kRounds = 1;
        for (Row& r : rows) {
          const kit::PatternBench bench(r.pattern);
          const kit::SharedCounters c = session.measure([&] { bench.run(kBlocks, kRounds); });
          const bool load = o.op == kit::SharedOp::load;
          const std::uint64_t req = load ? c.sass.load_requests : c.sass.store_requests;
          const std::uint64_t wav = load ? c.sass.load_wavefronts : c.sass.store_wavefronts;
          if (req != bench.pattern_requests(kBlocks, kRounds)) {
            throw std::runtime_error("the pattern kernel issued " + std::to_string(req) +
                                     " requests, not " +
                                     std::to_string(bench.pattern_requests(kBlocks, kRounds)));
          }
          r.counter = static_cast<double>(wav) / static_cast<double>(req);
        }
      }
    } else {
      notes.push_back("counter column empty: --no-counters");
    }
    if (o.timing && !kit::small_mode()) {
      // Each row's slowdown is the median of its ratios in kTimingPasses passes over all the
      // rows: a disturbance of the GPU that lasts a second (seen on an H100 now and then, a few
      // percent on every launch of neighbouring rows) moves one of a row's three ratios, not
      // its figure.
      constexpr int kTimingPasses = 3;
      std::vector<std::vector<double>> ratios(rows.size());
      for (int pass = 0; pass < kTimingPasses; ++pass) {
        for (std::size_t i = 0; i < rows.size(); ++i) {
          kit::PatternBench a(rows[i].pattern), b(baseline);
          const kit::PatternPair pair = kit::saturating_pair(a, b);
          ratios[i].push_back(kit::measure_slowdown(pair.a, pair.b).ratio);
        }
      }
      for (std::size_t i = 0; i < rows.size(); ++i) {
        std::sort(ratios[i].begin(), ratios[i].end());
        rows[i].slowdown = ratios[i][ratios[i].size() / 2];
      }
      if (auto busy = kit::gpu_contention()) {
        notes.push_back("timings may be off: " + *busy);
      }
    } else {
      notes.push_back(std::string("slowdown column empty: ") +
                      (o.timing ? "small mode (KIT_SMALL=1)" : "--no-timing"));
    }
  }

  if (o.output.empty()) {
    print(std::cout, o, rows, notes);
    return 0;
  }
  std::ofstream f(o.output);
  if (!f) {
    throw UsageError("--output: cannot write '" + o.output + "'");
  }
  print(f, o, rows, notes);
  f.close();
  if (!f) {
    throw UsageError("--output: cannot write '" + o.output + "'");
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return course_tools::run_tool("bank-conflicts", [&] { return run(parse(argc, argv)); });
}
