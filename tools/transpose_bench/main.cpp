// transpose-bench: the bandwidth of every kernel of lesson 05 (the copy, the naive, tiled and
// padded transposes, every variant of variants/variants.hpp) and of a device-to-device cudaMemcpy
// of the same bytes, as a table or CSV.
//
//   transpose-bench                                   8192 x 8192 fp32, a table
//   transpose-bench --csv --output docs/measurements/transpose.csv
//   transpose-bench --size 4096 1000 --kernels transpose_padded,transpose_padded_64x8
//
// Each kernel's result is checked once against a CPU transpose (or copy) of random bits,
// then the kernel is timed alternating with the cudaMemcpy (kit::measure_ratio): vs_memcpy is
// memcpy's median time over the kernel's, both from the same run. GB/s counts the bytes read
// plus the bytes written. Exit status: 0; 1 without a usable GPU, when a kernel is wrong or
// CUDA fails; 2 for bad arguments (one line).
//
// A lesson program, built once per tree (course_add_lesson_program): transpose-bench times
// your lesson 05's transpose_tiled and transpose_padded, transpose-bench-solution (in a build
// with the reference solutions) the solution's.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <demo.hpp>

#include "built_from.hpp"
#include "cli.hpp"
#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/device.hpp"
#include "kit/matrix.hpp"
#include "kit/measurement_csv.hpp"
#include "kit/timer.hpp"
#include "variants.hpp"

namespace {

using course_tools::kProgram; // transpose-bench, or transpose-bench-solution
using course_tools::UsageError;

/// The side of the default matrix (fp32: 256 MiB each way, far beyond the L2).
constexpr int kDefaultSide = 8192;
/// Largest side accepted, and largest number of elements (8 GiB each way).
constexpr long long kMaxSide = 1 << 20;
constexpr long long kMaxElements = 1LL << 31;

constexpr const char* kUsage =
    "usage: transpose-bench [--size ROWS COLS] [--kernels NAME,NAME,...] [--repeats N]\n"
    "                       [--csv] [--output FILE] [--list] [--built-from]\n"
    "Times every kernel of lesson 05 and every variant of variants.hpp on a ROWS x COLS fp32\n"
    "matrix (8192 x 8192 unless given), each alternated with a device-to-device cudaMemcpy of\n"
    "the same bytes, after checking its result against the CPU. Prints GB/s (bytes read +\n"
    "written over the median launch) and the share of the cudaMemcpy's bandwidth.\n"
    "--kernels times only those (--list names them); --repeats sets the timed launches of\n"
    "each (at least 10, 25 unless given); --csv writes the measurement file format.\n"
    "--built-from names the tree whose lesson 05 this program was linked with (the file\n"
    "transpose_tiled and transpose_padded come from, as the table's note says).\n";

/// The note that says where transpose_tiled and transpose_padded come from: the exercise of
/// the tree whose lesson 05 library this program links.
std::string built_from_note() {
  return "transpose_tiled and transpose_padded: " + course_tools::built_from("exercise.cu");
}

/// One kernel of the table.
struct Entry {
  std::string name;
  lesson05::MatrixOp op;
  bool transposes;
};

std::vector<Entry> all_entries() {
  std::vector<Entry> e = {
      {"copy_matrix", lesson05::copy_matrix, false},
      {"transpose_naive", lesson05::transpose_naive, true},
      {"transpose_tiled", lesson05::transpose_tiled, true},
      {"transpose_padded", lesson05::transpose_padded, true},
  };
  for (const transpose_variants::Variant& v : transpose_variants::kVariants) {
    e.push_back({v.name, v.op, v.transposes});
  }
  return e;
}

struct Options {
  int rows = kDefaultSide;
  int cols = kDefaultSide;
  std::vector<Entry> entries = all_entries();
  int repeats = 25;
  bool csv = false;
  std::string output;
  std::string command;
};

std::vector<Entry> pick(const std::string& list) {
  const std::vector<Entry> all = all_entries();
  std::vector<Entry> picked;
  for (const std::string& name : course_tools::split_list(list, "--kernels")) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const Entry& e) { return e.name == name; });
    if (it == all.end()) {
      throw UsageError("--kernels: unknown kernel '" + name + "' (--list names them)");
    }
    picked.push_back(*it);
  }
  return picked;
}

Options parse(int argc, char** argv) {
  Options o;
  course_tools::Args args(argc, argv);
  // How to take the numbers again; where the output went is not part of that.
  o.command = args.recorded(kProgram, {"--output", "-o"});
  while (!args.done()) {
    const std::string a = args.next();
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--list") {
      for (const Entry& e : all_entries()) {
        std::printf("%s\n", e.name.c_str());
      }
      std::exit(0);
    } else if (a == "--built-from") {
      std::printf("%s\n", built_from_note().c_str());
      std::exit(0);
    } else if (a == "--size") {
      if (!args.value_follows()) {
        throw UsageError("--size needs two values, ROWS COLS");
      }
      const std::string rows = args.next();
      if (!args.value_follows()) {
        throw UsageError("--size needs two values, ROWS COLS");
      }
      o.rows = static_cast<int>(course_tools::parse_int(rows, a, 1, kMaxSide));
      o.cols = static_cast<int>(course_tools::parse_int(args.next(), a, 1, kMaxSide));
      if (static_cast<long long>(o.rows) * o.cols > kMaxElements) {
        throw UsageError("--size: " + std::to_string(o.rows) + " x " + std::to_string(o.cols) +
                         " has more than " + std::to_string(kMaxElements) + " elements");
      }
    } else if (a == "--kernels") {
      o.entries = pick(args.value(a));
    } else if (a == "--repeats") {
      o.repeats = static_cast<int>(course_tools::parse_int(args.value(a), a, 10, 1000));
    } else if (a == "--csv") {
      o.csv = true;
    } else if (a == "--output" || a == "-o") {
      o.output = args.value(a);
      const std::filesystem::path folder = std::filesystem::path(o.output).parent_path();
      if (!folder.empty() && !std::filesystem::is_directory(folder)) {
        throw UsageError("--output: cannot write '" + o.output + "' (no folder " + folder.string() +
                         ")");
      }
    } else {
      throw course_tools::unknown(a);
    }
  }
  return o;
}

/// out[c][r] = in[r][c], in blocks so that neither side strides through the whole matrix.
std::vector<std::uint32_t> cpu_transpose(const std::vector<std::uint32_t>& in, int rows, int cols) {
  constexpr int kBlock = 64;
  std::vector<std::uint32_t> out(in.size());
  for (int r0 = 0; r0 < rows; r0 += kBlock) {
    for (int c0 = 0; c0 < cols; c0 += kBlock) {
      for (int r = r0; r < std::min(rows, r0 + kBlock); ++r) {
        for (int c = c0; c < std::min(cols, c0 + kBlock); ++c) {
          out[kit::matrix_index(c, r, rows)] = in[kit::matrix_index(r, c, cols)];
        }
      }
    }
  }
  return out;
}

/// Where `got` first differs from `want` (a matrix of `out_cols` columns), if it does.
std::optional<std::string> first_difference(const std::vector<std::uint32_t>& got,
                                            const std::vector<std::uint32_t>& want, int out_cols) {
  const auto it = std::mismatch(got.begin(), got.end(), want.begin());
  if (it.first == got.end()) {
    return std::nullopt;
  }
  const auto i = static_cast<std::size_t>(it.first - got.begin());
  std::size_t differ = 0;
  for (std::size_t k = i; k < got.size(); ++k) {
    differ += got[k] != want[k] ? 1 : 0;
  }
  std::ostringstream m;
  m << differ << " of " << got.size() << " elements differ, the first at output ("
    << i / static_cast<std::size_t>(out_cols) << ", " << i % static_cast<std::size_t>(out_cols)
    << ")";
  return m.str();
}

double gigabytes_per_second(std::size_t bytes, double ms) {
  return ms > 0 ? 2.0 * static_cast<double>(bytes) / (ms * 1e-3) / 1e9 : 0.0;
}

/// One row of the table; no timing for a kernel whose result is wrong.
struct Row {
  std::string name;
  std::optional<double> gbps;
  std::optional<double> vs_memcpy;
  std::optional<double> median_ms;
};

using kit::fixed;

void print(std::ostream& out, const Options& o, const std::vector<Row>& rows,
           const std::vector<std::string>& notes) {
  const std::size_t mib =
      static_cast<std::size_t>(o.rows) * static_cast<std::size_t>(o.cols) * sizeof(float) >> 20;
  if (o.csv) {
    kit::MeasurementTable table{
        o.command, {}, notes, "kernel,rows,cols,gb_per_s,vs_memcpy,median_ms", {}};
    for (const Row& r : rows) {
      table.rows.push_back(kit::csv_field(r.name) + "," + std::to_string(o.rows) + "," +
                           std::to_string(o.cols) + "," + fixed(r.gbps, 0) + "," +
                           fixed(r.vs_memcpy, 3) + "," + fixed(r.median_ms, 4));
    }
    kit::write_measurement_csv(out, table);
    return;
  }
  out << kit::device_description() << ", " << o.rows << " x " << o.cols << " fp32 (" << mib
      << " MiB each way)\n";
  for (const std::string& n : notes) {
    out << "note: " << n << "\n";
  }
  char line[200];
  std::snprintf(line, sizeof line, "  %-40s %8s %11s %11s\n", "kernel", "GB/s", "vs memcpy",
                "median ms");
  out << line;
  for (const Row& r : rows) {
    std::snprintf(line, sizeof line, "  %-40s %8s %11s %11s\n", r.name.c_str(),
                  r.gbps ? fixed(r.gbps, 0).c_str() : "wrong", fixed(r.vs_memcpy, 3).c_str(),
                  fixed(r.median_ms, 4).c_str());
    out << line;
  }
}

int run(const Options& o, std::ostream& out) {
  const std::size_t n = static_cast<std::size_t>(o.rows) * static_cast<std::size_t>(o.cols);
  std::vector<std::uint32_t> in(n);
  std::mt19937 random(20261122u); // the values do not matter to the timing: any bits will do
  std::generate(in.begin(), in.end(), [&] { return static_cast<std::uint32_t>(random()); });
  const std::vector<std::uint32_t> transposed = cpu_transpose(in, o.rows, o.cols);
  kit::DeviceBuffer<std::uint32_t> d_in(in), d_out(n);
  const float* src = reinterpret_cast<const float*>(d_in.get());
  float* dst = reinterpret_cast<float*>(d_out.get());

  kit::Launch memcpy_launch;
  memcpy_launch.name = "cudaMemcpy D2D";
  memcpy_launch.run = [=, bytes = d_in.bytes()](cudaStream_t s) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
  };
  const kit::TimerOptions timing{3, o.repeats};

  std::vector<Row> rows;
  std::vector<std::string> notes = {
      built_from_note(),
      "gb_per_s: bytes read + written over the median of " + std::to_string(o.repeats) +
          " launches; vs_memcpy: against a cudaMemcpy D2D of the same bytes, alternated in the "
          "same run",
  };
  std::vector<double> memcpy_ms;
  bool all_right = true;
  for (const Entry& e : o.entries) {
    d_out.fill_bytes(0xff);
    e.op(src, dst, o.rows, o.cols, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto wrong = first_difference(d_out.download(), e.transposes ? transposed : in,
                                        e.transposes ? o.rows : o.cols);
    if (wrong) {
      std::fprintf(stderr, "%s: %s is wrong on %d x %d (%s): not timed\n", kProgram, e.name.c_str(),
                   o.rows, o.cols, wrong->c_str());
      notes.push_back(e.name + " not timed: its result is wrong");
      rows.push_back({e.name, std::nullopt, std::nullopt, std::nullopt});
      all_right = false;
      continue;
    }
    kit::Launch launch;
    launch.name = e.name;
    launch.run = [&e, src, dst, &o](cudaStream_t s) { e.op(src, dst, o.rows, o.cols, s); };
    const kit::Slowdown t = kit::measure_ratio(launch, memcpy_launch, timing);
    memcpy_ms.push_back(t.b.median_ms);
    rows.push_back({e.name, gigabytes_per_second(d_in.bytes(), t.a.median_ms),
                    t.ratio > 0 ? 1.0 / t.ratio : 0.0, t.a.median_ms});
  }
  if (!memcpy_ms.empty()) {
    std::sort(memcpy_ms.begin(), memcpy_ms.end());
    const double ms = memcpy_ms[memcpy_ms.size() / 2]; // the median of its medians
    rows.push_back({"cudaMemcpy D2D", gigabytes_per_second(d_in.bytes(), ms), 1.0, ms});
  }
  if (const auto busy = kit::gpu_contention()) {
    notes.push_back("timings may be off: " + *busy);
  }
  print(out, o, rows, notes);
  out.flush();
  return all_right ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  return course_tools::run_tool(kProgram, [&] {
    const Options o = parse(argc, argv);
    if (const kit::GpuStatus& gpu = kit::gpu_status(); !gpu.usable) {
      std::fprintf(stderr, "%s: %s\n", kProgram, gpu.reason.c_str());
      return 1;
    }
    if (o.output.empty()) {
      return run(o, std::cout);
    }
    std::ofstream file(o.output);
    if (!file) {
      throw UsageError("--output: cannot write '" + o.output + "'");
    }
    const int status = run(o, file);
    file.close();
    if (!file) {
      std::fprintf(stderr, "%s: --output: cannot write '%s'\n", kProgram, o.output.c_str());
      return 1;
    }
    return status;
  });
}
