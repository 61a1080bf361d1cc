/// @file trace.hpp
/// @brief Traces: the shared-memory instructions a kernel issues, described on the host.
///
/// A test builds a trace from the same `constexpr` index functions the kernel uses: one
/// entry per distinct warp instruction, with how many times it executes in the launch. The
/// bank model turns the trace into the load and store requests and wavefronts the hardware
/// counters must read. Requests that differ tell you the compiler merged, split or hoisted
/// accesses; wavefronts that differ tell you the layout is not what you think.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kit/bank_model.hpp"

namespace kit {

/// Requests and wavefronts of shared loads and stores: what the counters read for a launch,
/// or what the model expects.
struct SharedCounts {
  std::uint64_t load_requests = 0;    ///< Warp-wide shared load instructions executed.
  std::uint64_t load_wavefronts = 0;  ///< Wavefronts those loads took.
  std::uint64_t store_requests = 0;   ///< Warp-wide shared store instructions executed.
  std::uint64_t store_wavefronts = 0; ///< Wavefronts those stores took.

  /// Adds another set of counts.
  SharedCounts& operator+=(const SharedCounts& o) {
    load_requests += o.load_requests;
    load_wavefronts += o.load_wavefronts;
    store_requests += o.store_requests;
    store_wavefronts += o.store_wavefronts;
    return *this;
  }
  /// All four numbers equal.
  friend bool operator==(const SharedCounts& a, const SharedCounts& b) {
    return a.load_requests == b.load_requests && a.load_wavefronts == b.load_wavefronts &&
           a.store_requests == b.store_requests && a.store_wavefronts == b.store_wavefronts;
  }
  /// Any of the four numbers differs.
  friend bool operator!=(const SharedCounts& a, const SharedCounts& b) { return !(a == b); }

  /// Load wavefronts per load request (0 when there are none).
  double load_wavefronts_per_request() const {
    return load_requests ? double(load_wavefronts) / double(load_requests) : 0.0;
  }
  /// Store wavefronts per store request (0 when there are none).
  double store_wavefronts_per_request() const {
    return store_requests ? double(store_wavefronts) / double(store_requests) : 0.0;
  }
};

/// A lane's address, or nothing when the lane is inactive for that instruction.
using LaneAddress = std::optional<std::uint32_t>;

/// One distinct warp instruction of a trace.
struct TraceEntry {
  SharedOp op;          ///< Load or store.
  WarpAccess access;    ///< Lane addresses, mask and width.
  std::uint64_t repeat; ///< How many times the launch executes it.
  std::string what;     ///< A label for messages ("tile column read").
};

/// The shared-memory instructions of one launch.
class Trace {
public:
  /// Adds an instruction executed `repeat` times.
  void add(SharedOp op, const WarpAccess& access, std::uint64_t repeat = 1, std::string what = {}) {
    if (repeat == 0 || access.mask == 0) {
      return; // never issued
    }
    entries_.push_back({op, access, repeat, std::move(what)});
  }

  /// Adds an instruction whose lanes are given by a function lane -> LaneAddress.
  template <class LaneFn>
  void add(SharedOp op, int width, LaneFn&& lane_address, std::uint64_t repeat = 1,
           std::string what = {}) {
    WarpAccess a;
    a.width = width;
    a.mask = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const LaneAddress addr = lane_address(lane);
      if (addr) {
        a.mask |= 1u << lane;
        a.address[lane] = *addr;
      }
    }
    add(op, a, repeat, std::move(what));
  }

  /// Appends every entry of another trace.
  void append(const Trace& other) {
    entries_.insert(entries_.end(), other.entries_.begin(), other.entries_.end());
  }

  /// The same trace with entries of one kind (op, width, active lanes, cost, label) merged
  /// into one with the summed repeats: the expected counts are unchanged, and a trace built
  /// tile by tile reads in a few lines. Invalid entries stay as they are (expected() reports
  /// them).
  Trace compacted() const {
    using Key = std::tuple<int, int, std::uint32_t, int, std::string>;
    std::map<Key, std::size_t> index;
    Trace out;
    for (const TraceEntry& e : entries_) {
      const BankReport r = analyze(e.access, e.op);
      if (!r.ok()) {
        out.entries_.push_back(e);
        continue;
      }
      const Key key{static_cast<int>(e.op), e.access.width, e.access.mask, r.wavefronts, e.what};
      const auto [it, fresh] = index.emplace(key, out.entries_.size());
      if (fresh) {
        out.entries_.push_back(e);
      } else {
        out.entries_[it->second].repeat += e.repeat;
      }
    }
    return out;
  }

  /// The instructions, in the order added.
  const std::vector<TraceEntry>& entries() const { return entries_; }

  /// What the model expects the counters to read. Throws std::invalid_argument when an
  /// instruction is not a valid request (bad width, misaligned lane).
  SharedCounts expected() const {
    SharedCounts c;
    for (const TraceEntry& e : entries_) {
      const BankReport r = analyze(e.access, e.op);
      if (!r.ok()) {
        std::ostringstream msg;
        msg << "trace entry '" << e.what << "': " << to_string(r.error);
        if (r.error_lane >= 0) {
          msg << " (lane " << r.error_lane << ", address " << e.access.address[r.error_lane]
              << ", width " << e.access.width << ")";
        }
        throw std::invalid_argument(msg.str());
      }
      const std::uint64_t w = static_cast<std::uint64_t>(r.wavefronts) * e.repeat;
      if (e.op == SharedOp::load) {
        c.load_requests += e.repeat;
        c.load_wavefronts += w;
      } else {
        c.store_requests += e.repeat;
        c.store_wavefronts += w;
      }
    }
    return c;
  }

  /// What the counters would read if every instruction cost its ideal (the same requests as
  /// expected(), wavefronts at one per phase, the load merges counted: BankReport::ideal): the
  /// target of a conflict-free kernel. expected() minus ideal() is what the bank-conflict
  /// counters read.
  /// Throws std::invalid_argument like expected().
  SharedCounts ideal() const {
    SharedCounts c = expected(); // validates every entry and counts the requests
    c.load_wavefronts = 0;
    c.store_wavefronts = 0;
    for (const TraceEntry& e : entries_) {
      const std::uint64_t w = static_cast<std::uint64_t>(analyze(e.access, e.op).ideal) * e.repeat;
      (e.op == SharedOp::load ? c.load_wavefronts : c.store_wavefronts) += w;
    }
    return c;
  }

  /// One line per entry: op, width, how many requests of it the launch issues, wavefronts per
  /// request, label.
  std::string describe() const {
    std::ostringstream out;
    for (const TraceEntry& e : entries_) {
      const BankReport r = analyze(e.access, e.op);
      out << "  " << (e.op == SharedOp::load ? "load " : "store") << " " << e.access.width << " B, "
          << e.repeat << " request(s): " << r.wavefronts << " wavefront(s) per request"
          << (e.what.empty() ? "" : "  (" + e.what + ")") << "\n";
    }
    return out.str();
  }

private:
  std::vector<TraceEntry> entries_;
};

/// The lanes that collide in a request: the first bank, in the costliest phase, asked for more than
/// one distinct word, with the words and the lanes asking for each: "bank 4 is asked for different
/// words in one phase: word 36 (lanes 0, 1), word 68 (lane 16)" (at most four words, then "and
/// more": never how many, which may be a prediction's answer). Where every phase costs one
/// wavefront but phases that could share one do not, the first such bank over the request's lanes
/// ("... by lanes whose phases could share a wavefront: ..."). Empty when no bank is.
inline std::string colliding_lanes(const BankReport& r) {
  int worst = -1;
  for (int p = 0; p < r.phases; ++p) {
    if (r.phase_wavefronts[p] > 1 &&
        (worst < 0 || r.phase_wavefronts[p] > r.phase_wavefronts[worst])) {
      worst = p;
    }
  }
  // bank -> word -> lanes, in lane order: of the worst phase, or of every phase.
  std::map<int, std::map<std::uint32_t, std::vector<int>>> asked;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneDetail& d = r.lanes[lane];
    if (!d.active || (worst >= 0 && d.phase != worst)) {
      continue;
    }
    for (int k = 0; k < d.words; ++k) {
      const std::uint32_t w = d.word + static_cast<std::uint32_t>(k);
      std::vector<int>& lanes = asked[static_cast<int>(w % kNumBanks)][w];
      if (lanes.empty() || lanes.back() != lane) {
        lanes.push_back(lane);
      }
    }
  }
  for (const auto& [bank, words] : asked) {
    if (words.size() < 2) {
      continue;
    }
    std::ostringstream out;
    out << "bank " << bank << " is asked for different words"
        << (worst >= 0 ? " in one phase:"
                       : " by lanes whose phases could share a "
                         "wavefront:");
    const char* sep = " ";
    std::size_t shown = 0;
    for (const auto& [word, lanes] : words) {
      if (shown++ == 4) {
        out << " and more"; // not how many: a count may be a prediction's answer
        break;
      }
      out << sep << "word " << word << " (lane" << (lanes.size() > 1 ? "s " : " ");
      for (std::size_t i = 0; i < lanes.size(); ++i) {
        out << (i ? ", " : "") << lanes[i];
      }
      out << ")";
      sep = ", ";
    }
    return out.str();
  }
  return {};
}

/// The first instruction of a trace that costs more than its ideal (or is not a valid
/// request): what a test names, once, when a kernel's accesses conflict.
struct OverIdeal {
  std::string what;      ///< The instruction's label ("tile column load").
  SharedOp op;           ///< Load or store.
  int width = 0;         ///< Bytes per lane.
  int wavefronts = 0;    ///< Wavefronts per request.
  int ideal = 0;         ///< Its ideal.
  std::string error;     ///< Why it is not a valid request, or empty.
  std::string collision; ///< Which lanes collide (kit::colliding_lanes), or empty.
  int more = 0;          ///< Entries of the trace after it that are over their ideal too.

  /// "the tile column load (4 B load) costs more wavefronts per request than its ideal: bank 5
  /// is asked for different words in one phase: ... (and 31 more instructions over their
  /// ideal)". Not what it costs: with a starter's layout that is often a prediction's answer.
  std::string describe() const {
    const std::string name = "the " + (what.empty() ? std::string("instruction") : what) + " (" +
                             std::to_string(width) + " B " +
                             (op == SharedOp::load ? "load" : "store") + ")";
    if (!error.empty()) {
      return name + " is not a valid request: " + error;
    }
    return name + " costs more wavefronts per request than its ideal" +
           (collision.empty() ? "" : ": " + collision) +
           (more > 0 ? " (and " + std::to_string(more) + " more instruction" +
                           (more > 1 ? "s" : "") + " over their ideal)"
                     : "");
  }
};

/// The first entry of `trace`, in the order added, that costs more than its ideal or is not a
/// valid request (with how many entries after it are over their ideal too); nothing when every
/// one is at its ideal.
inline std::optional<OverIdeal> first_over_ideal(const Trace& trace) {
  std::optional<OverIdeal> first;
  for (const TraceEntry& e : trace.entries()) {
    const BankReport r = analyze(e.access, e.op);
    if (!r.ok() || r.wavefronts > r.ideal) {
      if (first) {
        ++first->more;
      } else if (!r.ok()) {
        first = OverIdeal{e.what, e.op, e.access.width, 0, 0, to_string(r.error), {}};
      } else {
        first =
            OverIdeal{e.what, e.op, e.access.width, r.wavefronts, r.ideal, {}, colliding_lanes(r)};
      }
    }
  }
  return first;
}

/// Wavefronts (loads and stores) of trace A over trace B: the slowdown the model predicts for
/// kernel A against kernel B when the shared-memory pipe is the bottleneck (0 when B has none).
inline double model_ratio(const Trace& a, const Trace& b) {
  const SharedCounts ca = a.expected();
  const SharedCounts cb = b.expected();
  const double wb = static_cast<double>(cb.load_wavefronts + cb.store_wavefronts);
  return wb > 0 ? static_cast<double>(ca.load_wavefronts + ca.store_wavefronts) / wb : 0.0;
}

} // namespace kit
