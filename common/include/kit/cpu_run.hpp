/// @file cpu_run.hpp
/// @brief For tests: run a course kernel on the CPU (kit/cpu_runtime.hpp) and read what it did:
/// the warp requests of its shared accesses (as a kit::Trace for the bank model), the findings
/// (races, bounds, barriers), and global buffers whose overruns fault by element.
///
///     kit::cpu::GuardedBuffer<float> in(rows * cols, "in"), out(rows * cols, "out");
///     const kit::cpu::KernelRun run = kit::cpu::record([&] { transpose(in.get(), out.get(), ...);
///     }); EXPECT_TRUE(run.findings.empty()) << run.findings_text();
///     EXPECT_EQ(run.trace().expected(), expected_trace.expected());
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_run.hpp is host code: the CPU run of a kernel"
#endif

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/cpu_runtime.hpp"
#include "kit/recorded_launch.hpp"
#include "kit/trace.hpp"

namespace kit::cpu {

/// `n` elements of `T` that end exactly at a page the process may not touch (and start one page
/// after another): a kernel that reads or writes past the end stops with a fault that the CPU
/// run reports by thread and element. Before the start, a fault needs the access to leave the
/// buffer's first page. (The pages and the fault: kit/cpu_global_guard.hpp.)
template <class T>
class GuardedBuffer {
public:
  /// `n` elements, all bytes 0xff; `name` is how findings call it ("in").
  GuardedBuffer(std::size_t n, std::string name) : n_(n), pages_(n * sizeof(T)) {
    data_ = reinterpret_cast<T*>(pages_.data());
    std::memset(static_cast<void*>(data_), 0xff, n * sizeof(T));
    cpu_runtime::Runtime::get().add_buffer(pages_.record(sizeof(T), "`" + name + "`"));
  }
  ~GuardedBuffer() { cpu_runtime::Runtime::get().remove_buffer(data_); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  /// The first element.
  T* get() { return data_; }
  /// Elements.
  std::size_t size() const { return n_; }
  /// Copies `values` in (values.size() must be size()).
  void assign(const std::vector<T>& values) {
    if (values.size() != n_) {
      throw std::invalid_argument("GuardedBuffer::assign: wrong size");
    }
    std::memcpy(static_cast<void*>(data_), values.data(), n_ * sizeof(T));
  }
  /// The elements.
  std::vector<T> to_vector() const { return std::vector<T>(data_, data_ + n_); }

private:
  std::size_t n_;
  cpu_runtime::GuardedPages pages_; // unmapped after the destructor forgot the buffer
  T* data_ = nullptr;
};

using Request = cpu_runtime::Request; ///< One recorded warp request.

/// "thread (x, y)" of lane `lane` of request `r` (blockDim.x is r.block_x).
inline std::string thread_of(const Request& r, int lane) {
  const unsigned t = static_cast<unsigned>(r.warp * kWarpSize + lane);
  const unsigned bx = r.block_x ? r.block_x : 1u;
  return "thread (" + std::to_string(t % bx) + ", " + std::to_string(t / bx) + ")";
}

/// "warp 0 of block (1, 2), exercise.cu:27, 4-byte store".
inline std::string describe_instruction(const Request& r) {
  std::ostringstream s;
  s << "warp " << r.warp << " of block (" << r.block.x << ", " << r.block.y << "), "
    << r.site.describe() << ", " << r.access.width << "-byte "
    << (r.op == SharedOp::load ? "load" : "store");
  return s.str();
}

/// "warp 0 of block (1, 2), exercise.cu:27, 4-byte store: lane 0 at tile element (0, 0),
/// lane 1 at (1, 0), ... (32 lanes)".
inline std::string describe(const Request& r) {
  std::ostringstream s;
  s << describe_instruction(r) << ": ";
  int shown = 0, active = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!(r.access.mask >> lane & 1u)) {
      continue;
    }
    ++active;
    if (shown < 4) {
      const unsigned t = static_cast<unsigned>(r.warp * kWarpSize + lane);
      const unsigned bx = r.block_x ? r.block_x : 1u;
      s << (shown ? ", " : "") << "lane " << lane << " (thread (" << t % bx << ", " << t / bx
        << ")) at tile element (" << r.row[lane] << ", " << r.col[lane] << ")";
      ++shown;
    }
  }
  s << (active > shown ? ", ..." : "") << " (" << active << " active lane(s))";
  return s.str();
}

/// Two active lanes of `r` that ask one bank for different 32-bit words in the same phase (a
/// bank conflict), in words: "lanes 0 and 16 (threads (0, 0) and (16, 0)) ask bank 0 for
/// different words: tile elements (0, 0) and (1, 0)"; nothing when there are none.
inline std::optional<std::string> conflicting_lanes(const Request& r) {
  const int width = r.access.width > 0 ? r.access.width : 1;
  const int phase_lanes = width <= 4 ? kWarpSize : width == 8 ? kWarpSize / 2 : kWarpSize / 4;
  const unsigned bx = r.block_x ? r.block_x : 1u;
  const auto thread = [&](int lane) {
    const unsigned t = static_cast<unsigned>(r.warp * kWarpSize + lane);
    return "(" + std::to_string(t % bx) + ", " + std::to_string(t / bx) + ")";
  };
  for (int a = 0; a < kWarpSize; ++a) {
    if (!(r.access.mask >> a & 1u)) {
      continue;
    }
    for (int b = a + 1; b < kWarpSize && b / phase_lanes == a / phase_lanes; ++b) {
      if (!(r.access.mask >> b & 1u)) {
        continue;
      }
      for (std::uint32_t wa = word_of(r.access.address[a]);
           wa <= word_of(r.access.address[a] + static_cast<std::uint32_t>(width) - 1); ++wa) {
        for (std::uint32_t wb = word_of(r.access.address[b]);
             wb <= word_of(r.access.address[b] + static_cast<std::uint32_t>(width) - 1); ++wb) {
          if (wa != wb && wa % kNumBanks == wb % kNumBanks) {
            std::ostringstream s;
            s << "lanes " << a << " and " << b << " (threads " << thread(a) << " and " << thread(b)
              << ") ask bank " << wa % kNumBanks << " for different words: tile elements ("
              << r.row[a] << ", " << r.col[a] << ") and (" << r.row[b] << ", " << r.col[b] << ")";
            return s.str();
          }
        }
      }
    }
  }
  return std::nullopt;
}

namespace detail {

/// KernelRun::moved()'s words for the `size` bytes at `at` of lane `lane` of load `i`.
inline std::string describe_move(const std::vector<Request>& requests, std::size_t i, int lane,
                                 std::size_t at, std::size_t size) {
  const Request& load = requests[i];
  // " as the low half of the 4-byte load of tile element (0, 0)" where the access is wider than
  // the value; " from tile element (0, 1)" otherwise.
  const auto part = [&](const Request& r, int l, std::size_t byte, const char* from) {
    const std::string e =
        "tile element (" + std::to_string(r.row[l]) + ", " + std::to_string(r.col[l]) + ")";
    const std::size_t width = static_cast<std::size_t>(r.access.width);
    if (width <= size) {
      return std::string(" ") + from + " " + e;
    }
    const std::string which =
        width == 2 * size ? (byte == 0 ? "the low half" : "the high half")
                          : "bytes " + std::to_string(byte) + "-" + std::to_string(byte + size - 1);
    return " as " + which + " of the " + std::to_string(width) + "-byte " +
           (r.op == SharedOp::load ? "load of " : "store to ") + e;
  };
  std::string text = thread_of(load, lane) + " of block (" + std::to_string(load.block.x) + ", " +
                     std::to_string(load.block.y) + ") read it at " + load.site.describe() +
                     part(load, lane, at, "from");
  const std::uint32_t address = load.access.address[lane] + static_cast<std::uint32_t>(at);
  for (std::size_t j = i; j-- > 0;) {
    const Request& r = requests[j];
    if (r.block.x != load.block.x || r.block.y != load.block.y || r.block.z != load.block.z) {
      break; // the requests are block by block
    }
    if (r.op != SharedOp::store || r.tile != load.tile) {
      continue;
    }
    for (int l = 0; l < kWarpSize; ++l) {
      const std::uint32_t first = r.access.address[l];
      const std::uint32_t width = static_cast<std::uint32_t>(r.access.width);
      if (!(r.access.mask >> l & 1u) || address < first || address + size > first + width ||
          std::memcmp(r.value[l] + (address - first), load.value[lane] + at, size) != 0) {
        continue;
      }
      return text + ", where " + thread_of(r, l) + " had stored it at " + r.site.describe() +
             part(r, l, address - first, "in");
    }
  }
  return text;
}

} // namespace detail

/// What one CPU run of a kernel (or of a function that launches kernels) did.
struct KernelRun {
  std::vector<Request> requests;     ///< Every warp request of every block, in order.
  std::vector<std::string> findings; ///< Races, bounds, barriers: empty when none.
  int launches = 0;                  ///< Kernel launches.

  /// The findings, one per line, each indented by two spaces (no newline after the last).
  std::string findings_text() const {
    std::string s;
    for (const std::string& f : findings) {
      s += (s.empty() ? "  " : "\n  ") + f;
    }
    return s;
  }

  /// The requests as a trace (labelled by source line and op): what the bank model expects
  /// the GPU's counters to read for the same launch.
  Trace trace() const {
    Trace t;
    for (const Request& r : requests) {
      t.add(r.op, r.access, 1, r.site.describe());
    }
    return t.compacted();
  }

  /// The first request that costs more than its ideal (or is not a valid request), described
  /// (which warp, line, lanes and elements; not its count, which may be a prediction's answer),
  /// or nothing.
  std::optional<std::string> first_over_ideal() const {
    for (const Request& r : requests) {
      const BankReport b = analyze(r.access, r.op);
      if (!b.ok()) {
        return describe(r) + ": not a valid request (" + to_string(b.error) + ")";
      }
      if (b.wavefronts > b.ideal) {
        // The lanes that collide, not the first lanes of the request.
        int active = 0;
        for (int lane = 0; lane < kWarpSize; ++lane) {
          active += static_cast<int>(r.access.mask >> lane & 1u);
        }
        const auto lanes = conflicting_lanes(r);
        return describe_instruction(r) + ": " + std::to_string(active) +
               " active lane(s), more wavefronts than the ideal of its width (a bank conflict" +
               (lanes ? ": " + *lanes : std::string()) + ")";
      }
    }
    return std::nullopt;
  }

  /// How the run moved a value through shared memory: the first load, in the order the run made
  /// them, of `size` bytes equal to `bytes` (at a multiple of `size` within a lane's access), and
  /// the last store of the same block before it that left them there, in words: "thread (1, 0)
  /// of block (0, 0) read it at exercise.cu:26 from tile element (0, 1), where thread (1, 0) had
  /// stored it at exercise.cu:22 in tile element (0, 1)"; a value in a wider access is named by
  /// its part ("as the low half of the 4-byte load of tile element (0, 0)"). Nothing when no
  /// load of the run holds it. (Tests give every input element a value of its own, so that a
  /// value names where it came from.)
  std::optional<std::string> moved(const void* bytes, std::size_t size) const {
    if (size == 0) {
      return std::nullopt;
    }
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const Request& r = requests[i];
      if (r.op != SharedOp::load) {
        continue;
      }
      for (int lane = 0; lane < kWarpSize; ++lane) {
        if (!(r.access.mask >> lane & 1u)) {
          continue;
        }
        const std::size_t width = static_cast<std::size_t>(r.access.width);
        for (std::size_t at = 0; at + size <= width && at + size <= cpu_runtime::kValueBytes;
             at += size) {
          if (std::memcmp(r.value[lane] + at, bytes, size) == 0) {
            return detail::describe_move(requests, i, lane, at, size);
          }
        }
      }
    }
    return std::nullopt;
  }
};

/// Runs `fn` (which launches kernels through kit::launch) and returns what its launches did.
template <class Fn>
KernelRun record(Fn&& fn) {
  cpu_runtime::Runtime& rt = cpu_runtime::Runtime::get();
  rt.start_recording();
  fn();
  KernelRun run;
  run.requests = rt.requests();
  run.findings = rt.findings();
  run.launches = rt.launches();
  rt.start_recording();
  return run;
}

/// The variable that names a file where log_counts() appends what each CPU run recorded (the
/// GPU test that holds the recording to the hardware counters sets it: kit/testing_cpu_run.hpp).
inline constexpr const char* kCountsFileVariable = "KIT_CPU_COUNTS_OUT";

/// Appends one line `<kernel> <rows> <cols> <load requests> <load wavefronts> <store requests>
/// <store wavefronts>` for `run` to the file $KIT_CPU_COUNTS_OUT, when it is set.
inline void log_counts(const std::string& kernel, int rows, int cols, const KernelRun& run) {
  const char* path = std::getenv(kCountsFileVariable);
  if (path == nullptr || *path == '\0') {
    return;
  }
  const SharedCounts c = run.trace().expected();
  std::ofstream out(path, std::ios::app);
  out << kernel << " " << rows << " " << cols << " " << c.load_requests << " " << c.load_wavefronts
      << " " << c.store_requests << " " << c.store_wavefronts << "\n";
}

/// One CPU run of a kernel that moves a rows x cols matrix of `Bits`-sized elements: what it
/// recorded and found, and the input's and output's bits (row-major).
template <class Bits>
struct MatrixRun {
  KernelRun run;         ///< What the CPU run recorded and found.
  std::vector<Bits> in;  ///< The input's bits.
  std::vector<Bits> out; ///< The output's bits, as the kernel left them.
};

/// Runs `op(in, out, rows, cols, stream)` on the CPU on a rows x cols matrix of `T` whose
/// elements have the bits `in` (exact-size buffers with guard pages after them), logs the run's
/// counts under `name` for the GPU's cross-check (log_counts), and returns it.
template <class T, class Bits, class Op>
MatrixRun<Bits> run_matrix_kernel(const std::string& name, Op op, int rows, int cols,
                                  std::vector<Bits> in) {
  static_assert(sizeof(T) == sizeof(Bits), "one element's bits");
  MatrixRun<Bits> r;
  r.in = std::move(in);
  std::vector<T> values(r.in.size());
  std::memcpy(static_cast<void*>(values.data()), r.in.data(), r.in.size() * sizeof(T));
  GuardedBuffer<T> input(r.in.size(), "in"), output(r.in.size(), "out");
  input.assign(values);
  r.run = record([&] { op(input.get(), output.get(), rows, cols, nullptr); });
  log_counts(name, rows, cols, r.run);
  const std::vector<T> result = output.to_vector();
  r.out.resize(result.size());
  std::memcpy(r.out.data(), static_cast<const void*>(result.data()), r.out.size() * sizeof(T));
  return r;
}

/// The launches a GPU counter test asks this CPU kernel program to run and log
/// ($KIT_CPU_RUNS, kit/recorded_launch.hpp), none when it is unset. Throws
/// std::invalid_argument on an entry it cannot read.
inline std::vector<RecordedLaunch> requested_launches() {
  const char* text = std::getenv(kRecordedLaunchesVariable);
  return text == nullptr ? std::vector<RecordedLaunch>{} : parse_launches(text);
}

/// Compares the recorded requests with `expected` (a trace built entry by entry, not
/// compacted: each entry's lane addresses are the ones it stands for) as multisets of
/// (op, width, active lanes, lane addresses). Returns the first difference in words, or
/// nothing when every request of the run is one of the trace and none is missing.
inline std::optional<std::string> compare_requests(const KernelRun& run, const Trace& expected) {
  using Key = std::tuple<int, int, std::uint32_t, std::vector<std::uint32_t>>;
  const auto key_of = [](SharedOp op, const WarpAccess& a) {
    std::vector<std::uint32_t> lanes;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      lanes.push_back(a.mask >> lane & 1u ? a.address[lane] : 0u);
    }
    return Key{static_cast<int>(op), a.width, a.mask, lanes};
  };
  std::map<Key, std::pair<std::int64_t, const TraceEntry*>> left;
  for (const TraceEntry& e : expected.entries()) {
    auto& slot = left[key_of(e.op, e.access)];
    slot.first += static_cast<std::int64_t>(e.repeat);
    slot.second = &e;
  }
  for (const Request& r : run.requests) {
    auto it = left.find(key_of(r.op, r.access));
    if (it == left.end() || it->second.first == 0) {
      std::ostringstream s;
      s << describe(r) << ": no instruction of the expected trace accesses these lanes and offsets"
        << (it == left.end() ? "" : " (or not this many times)");
      return s.str();
    }
    --it->second.first;
  }
  for (const auto& [key, slot] : left) {
    if (slot.first > 0) {
      return std::to_string(slot.first) +
             " request(s) of the expected trace never ran: " + slot.second->what + " (" +
             std::to_string(slot.second->access.width) + "-byte " +
             (slot.second->op == SharedOp::load ? "load" : "store") + ")";
    }
  }
  return std::nullopt;
}

} // namespace kit::cpu
