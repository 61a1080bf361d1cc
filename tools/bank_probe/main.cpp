// bank-probe: measures single-instruction shared-memory patterns with the hardware counters
// and writes each with the bank model's number beside them, as CSV, so that a rule of the
// model can be fitted and checked again offline.
//
//   bank-probe --random 20000 --seed 7 [--first 0]    random draws (kit/pattern_draws.hpp)
//   bank-probe --structured [--every 7 --offset 3]     lane pairs, triples and runs (a sample)
//   bank-probe --patterns FILE                         the patterns of an earlier output, again
//   ... [--output FILE] [--append] [--check]
//
// Draw i of a seed depends on nothing else, so a long probe is run in parts (--first, --append)
// across calls of a few minutes. --every K --offset J keeps the structured patterns whose index
// is J modulo K, each with its index in the whole set: a sample of every kind of case in the
// set, for a check of bounded time (the course's self-check). --check: exit status 3 when any
// pattern's counters differ from the model. Without a GPU, or with counters refused, the counter
// columns stay empty and a note says why. Bad arguments: one line and exit status 2; a failure
// while measuring: 1.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"
#include "kit/bank_model.hpp"
#include "kit/counters.hpp"
#include "kit/device.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/pattern_bench.hpp"
#include "kit/pattern_draws.hpp"

namespace {

using course_tools::UsageError;

constexpr const char* kUsage =
    "usage: bank-probe (--random N [--seed S] [--first K] |\n"
    "                   --structured [--every K [--offset J]] | --patterns FILE)\n"
    "                  [--output FILE] [--append] [--check]\n"
    "Measures one warp instruction per pattern with the hardware counters (wavefronts per\n"
    "request) and writes it beside the bank model's count, one CSV row per pattern.\n"
    "--random N: draws K..K+N-1 of seed S (default 1); --structured: lane pairs, triples and\n"
    "runs of 8- and 16-byte accesses (with --every K: only those whose index is J modulo K,\n"
    "--offset J, default 0: a sample that keeps each pattern's index); --patterns FILE: the\n"
    "patterns of an earlier output.\n"
    "--append adds rows to --output without a header. --check: exit status 3 when a pattern's\n"
    "counters differ from the model.\n";

struct Options {
  enum class Set { none, random, structured, file } set = Set::none;
  std::uint64_t count = 0;
  std::uint64_t seed = 1;
  std::uint64_t first = 0;
  std::uint64_t every = 1; // --structured: keep index i where i % every == offset
  std::uint64_t offset = 0;
  std::string patterns;
  std::string output;
  bool append = false;
  bool check = false;
  std::string command;
};

Options parse(int argc, char** argv) {
  Options o;
  course_tools::Args args(argc, argv);
  o.command = args.recorded("bank-probe", {"--output", "-o"}, {"--patterns"});
  auto set_once = [&](Options::Set s, const std::string& flag) {
    if (o.set != Options::Set::none) {
      throw UsageError(flag + ": give only one of --random, --structured, --patterns");
    }
    o.set = s;
  };
  bool seeded = false, firsted = false, everyed = false, offsetted = false;
  while (!args.done()) {
    const std::string a = args.next();
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--random") {
      set_once(Options::Set::random, a);
      o.count = static_cast<std::uint64_t>(course_tools::parse_int(args.value(a), a, 1, 10000000));
    } else if (a == "--seed") {
      o.seed =
          static_cast<std::uint64_t>(course_tools::parse_int(args.value(a), a, 0, 999999999999LL));
      seeded = true;
    } else if (a == "--first") {
      o.first =
          static_cast<std::uint64_t>(course_tools::parse_int(args.value(a), a, 0, 999999999999LL));
      firsted = true;
    } else if (a == "--every") {
      o.every = static_cast<std::uint64_t>(course_tools::parse_int(args.value(a), a, 1, 1000000));
      everyed = true;
    } else if (a == "--offset") {
      o.offset = static_cast<std::uint64_t>(course_tools::parse_int(args.value(a), a, 0, 999999));
      offsetted = true;
    } else if (a == "--structured") {
      set_once(Options::Set::structured, a);
    } else if (a == "--patterns") {
      set_once(Options::Set::file, a);
      o.patterns = args.value(a);
    } else if (a == "--output" || a == "-o") {
      o.output = args.value(a);
    } else if (a == "--append") {
      o.append = true;
    } else if (a == "--check") {
      o.check = true;
    } else {
      throw course_tools::unknown(a);
    }
  }
  if (o.set == Options::Set::none) {
    throw UsageError("give one of --random N, --structured, --patterns FILE");
  }
  if ((seeded || firsted) && o.set != Options::Set::random) {
    throw UsageError(std::string(seeded ? "--seed" : "--first") + " goes with --random");
  }
  if ((everyed || offsetted) && o.set != Options::Set::structured) {
    throw UsageError(std::string(everyed ? "--every" : "--offset") + " goes with --structured");
  }
  if (offsetted && !everyed) {
    throw UsageError("--offset goes with --every K");
  }
  if (o.offset >= o.every) {
    throw UsageError("--offset: '" + std::to_string(o.offset) + "' is not less than --every " +
                     std::to_string(o.every));
  }
  if (o.append && o.output.empty()) {
    throw UsageError("--append adds to --output FILE: give it");
  }
  return o;
}

/// One pattern of the probe and what was read for it.
struct Probe {
  std::string set;
  std::uint64_t index = 0;
  kit::Pattern pattern;
  kit::BankReport model;
  std::optional<kit::PatternReading> read; // the counters, per request, once measured
};

const char* op_name(kit::SharedOp op) {
  return op == kit::SharedOp::store ? "store" : "load";
}

std::string offsets_text(const kit::WarpAccess& a) {
  std::string s;
  for (int l = 0; l < kit::kWarpSize; ++l) {
    s += (l ? " " : "") + std::to_string(a.address[l]);
  }
  return s;
}

std::string hex(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

/// Splits one CSV row (fields in double quotes may hold commas and doubled quotes).
std::vector<std::string> csv_row(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

constexpr const char* kColumns =
    "set,index,op,width,mask,offsets,model_wavefronts,model_ideal,counter_wavefronts,"
    "l1tex_wavefronts,bank_conflicts,name";

/// The patterns of an earlier output (its op, width, mask and offsets columns).
std::vector<Probe> read_patterns(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw UsageError("--patterns: cannot read '" + path + "'");
  }
  std::vector<Probe> out;
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') {
      continue;
    }
    if (!header) {
      if (line != kColumns) {
        throw UsageError("--patterns: '" + path + "' line " + std::to_string(number) +
                         ": not bank-probe's header row");
      }
      header = true;
      continue;
    }
    const std::vector<std::string> f = csv_row(line);
    const std::string where = "--patterns: '" + path + "' line " + std::to_string(number);
    if (f.size() != 12) {
      throw UsageError(where + ": " + std::to_string(f.size()) + " fields, not 12");
    }
    Probe p;
    p.set = f[0];
    p.index = static_cast<std::uint64_t>(course_tools::parse_int(f[1], where, 0, 999999999999LL));
    if (f[2] != "load" && f[2] != "store") {
      throw UsageError(where + ": op '" + f[2] + "' is not load or store");
    }
    p.pattern.op = f[2] == "store" ? kit::SharedOp::store : kit::SharedOp::load;
    p.pattern.access.width = static_cast<int>(course_tools::parse_int(f[3], where, 1, 16));
    try {
      std::size_t used = 0;
      p.pattern.access.mask = static_cast<std::uint32_t>(std::stoul(f[4], &used, 16));
      if (used != f[4].size() || f[4].size() != 8) {
        throw std::invalid_argument(f[4]);
      }
    } catch (const std::exception&) {
      throw UsageError(where + ": mask '" + f[4] + "' is not 8 hex digits");
    }
    std::istringstream offs(f[5]);
    for (int l = 0; l < kit::kWarpSize; ++l) {
      long long v = -1;
      if (!(offs >> v) || v < 0 || v > 200 * 1024) {
        throw UsageError(where + ": lane " + std::to_string(l) +
                         "'s offset is missing or out of range");
      }
      p.pattern.access.address[l] = static_cast<std::uint32_t>(v);
    }
    p.pattern.name = f[11];
    out.push_back(p);
  }
  if (!header) {
    throw UsageError("--patterns: '" + path + "' has no header row");
  }
  return out;
}

bool disagrees(const Probe& p) {
  return p.read && p.read->wavefronts != static_cast<double>(p.model.wavefronts);
}

int run(const Options& o) {
  std::vector<Probe> probes;
  if (o.set == Options::Set::random) {
    for (std::uint64_t i = o.first; i < o.first + o.count; ++i) {
      Probe p;
      p.set = "random:" + std::to_string(o.seed);
      p.index = i;
      p.pattern = kit::random_pattern(o.seed, i);
      probes.push_back(p);
    }
  } else if (o.set == Options::Set::structured) {
    std::uint64_t i = 0;
    for (const kit::Pattern& pattern : kit::structured_patterns()) {
      if (i % o.every == o.offset) {
        Probe p;
        p.set = "structured";
        p.index = i;
        p.pattern = pattern;
        probes.push_back(p);
      }
      ++i;
    }
    if (probes.empty()) {
      throw UsageError("--every " + std::to_string(o.every) + " --offset " +
                       std::to_string(o.offset) + ": no structured pattern has such an index (" +
                       std::to_string(i) + " patterns)");
    }
  } else {
    probes = read_patterns(o.patterns);
  }
  for (Probe& p : probes) {
    p.model = kit::analyze(p.pattern.access, p.pattern.op);
    if (!p.model.ok()) {
      throw UsageError("pattern '" + p.pattern.name + "': " + kit::to_string(p.model.error));
    }
  }

  std::vector<std::string> notes;
  const kit::GpuStatus& gpu = kit::gpu_status();
  if (!gpu.usable) {
    notes.push_back("counter columns empty: " + gpu.reason);
  } else {
    kit::CounterSession session;
    if (!session.ok()) {
      notes.push_back("counter columns empty: " + session.refusal());
    } else {
      std::vector<kit::Pattern> patterns;
      for (const Probe& p : probes) {
        patterns.push_back(p.pattern);
      }
      const std::vector<kit::PatternReading> readings = kit::measure_patterns(session, patterns);
      for (std::size_t i = 0; i < probes.size(); ++i) {
        probes[i].read = readings[i];
      }
    }
  }

  kit::MeasurementTable table{o.command, {}, notes, kColumns, {}};
  std::size_t measured = 0, differ = 0;
  for (const Probe& p : probes) {
    measured += p.read.has_value();
    differ += disagrees(p);
    const kit::WarpAccess& a = p.pattern.access;
    table.rows.push_back(kit::csv_field(p.set) + "," + std::to_string(p.index) + "," +
                         op_name(p.pattern.op) + "," + std::to_string(a.width) + "," + hex(a.mask) +
                         "," + offsets_text(a) + "," + std::to_string(p.model.wavefronts) + "," +
                         std::to_string(p.model.ideal) + "," +
                         (p.read ? kit::fixed(p.read->wavefronts, 2) : "") + "," +
                         (p.read ? kit::fixed(p.read->l1tex_wavefronts, 2) : "") + "," +
                         (p.read ? kit::fixed(p.read->bank_conflicts, 2) : "") + "," +
                         kit::csv_field(p.pattern.name));
  }
  if (o.output.empty()) {
    kit::write_measurement_csv(std::cout, table);
  } else {
    std::ofstream f(o.output, o.append ? std::ios::app : std::ios::trunc);
    if (!f) {
      throw UsageError("--output: cannot write '" + o.output + "'");
    }
    if (o.append) {
      for (const std::string& row : table.rows) {
        f << row << "\n";
      }
    } else {
      kit::write_measurement_csv(f, table);
    }
    f.close();
    if (!f) {
      throw UsageError("--output: cannot write '" + o.output + "'");
    }
  }
  std::fprintf(stderr, "bank-probe: %zu patterns, %zu measured, %zu differ from the model%s\n",
               probes.size(), measured, differ,
               notes.empty() ? "" : (" (" + notes.front() + ")").c_str());
  return o.check && differ > 0 ? 3 : 0;
}

} // namespace

int main(int argc, char** argv) {
  return course_tools::run_tool("bank-probe", [&] { return run(parse(argc, argv)); });
}
