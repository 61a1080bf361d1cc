/// @file cpu_findings.hpp
/// @brief How the CPU run of a kernel (kit/cpu_runtime.hpp) names what it finds: a thread of the
/// running block (ThreadId, BlockThreads), a source line (Site, Sites), and the findings a run
/// keeps (Findings). Every check of the CPU run builds its message from these words.
///
///     Sites sites;
///     Findings findings;
///     const BlockThreads threads{dim3(1, 2), dim3(32, 8), 37}; // blockIdx, blockDim, running
///     const int site = sites.id(__FILE__, __LINE__);
///     findings.report(threads.me().describe() + " at " + sites[site].describe());
///     // "thread (5, 1) of block (1, 2) (warp 1, lane 5) at exercise.cu:27"
///     findings.list(); // the first Findings::kKept, then "... and 3 more finding(s)"
///
/// You do not include this file: kit/cpu_runtime.hpp does.
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_findings.hpp is the CPU path of the kernels: nvcc builds them for the GPU"
#endif

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kit/config.hpp"

namespace kit::cpu_runtime {

/// Where a thread is: its block and thread indices, and its warp and lane.
struct ThreadId {
  dim3 block;   ///< blockIdx
  dim3 thread;  ///< threadIdx
  int warp = 0; ///< Warp of the block (linear thread index / 32).
  int lane = 0; ///< Lane of the warp.

  /// "thread (x, y) of block (bx, by) (warp w, lane l)".
  std::string describe() const {
    std::ostringstream s;
    s << "thread (" << thread.x << ", " << thread.y << ") of block (" << block.x << ", " << block.y
      << ") (warp " << warp << ", lane " << lane << ")";
    return s.str();
  }
};

/// The threads of the running block by their linear index t (threadIdx.x varies fastest; warp
/// t / 32, lane t % 32): how findings name them.
struct BlockThreads {
  dim3 block;      ///< The running block's blockIdx.
  dim3 dim;        ///< The launch's blockDim.
  int current = 0; ///< The linear index of the thread running now.

  /// Thread `t` of the block.
  ThreadId id_of(int t) const {
    ThreadId id;
    id.block = block;
    id.thread = dim3(static_cast<unsigned>(t) % dim.x, static_cast<unsigned>(t) / dim.x % dim.y,
                     static_cast<unsigned>(t) / (dim.x * dim.y));
    id.warp = t / kWarpSize;
    id.lane = t % kWarpSize;
    return id;
  }
  /// The thread running now.
  ThreadId me() const { return id_of(current); }
};

/// A source line: where a shared access or a barrier is written.
struct Site {
  std::string file; ///< The file's name (no folders).
  int line = 0;     ///< Its line.

  /// "exercise.cu:27".
  std::string describe() const { return file + ":" + std::to_string(line); }
};

/// The file name without its folders.
inline std::string base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/// The source lines a run has met, each with a small number of its own (its id): the shadow
/// bytes, the recorded accesses and the fibers at a barrier keep the id, a finding the line.
class Sites {
public:
  /// The id of `file`:`line` (a new one the first time).
  int id(const char* file, int line) {
    const auto key = std::make_pair(std::string(file), line);
    const auto it = ids_.find(key);
    if (it != ids_.end()) {
      return it->second;
    }
    sites_.push_back(Site{base_name(file), line});
    const int id = static_cast<int>(sites_.size()) - 1;
    ids_.emplace(key, id);
    return id;
  }
  /// The line of id `site`.
  const Site& operator[](int site) const { return sites_[static_cast<std::size_t>(site)]; }

private:
  std::vector<Site> sites_;
  std::map<std::pair<std::string, int>, int> ids_;
};

/// What a run found, in the order found: the first kKept findings word for word, the others
/// counted. A finding reported with a key (a race: its kind and its two lines) is one finding
/// however often it repeats: the first word for word, then how many more are like it (a missing
/// barrier races on every element of a tile, and one message with a count says so).
class Findings {
public:
  /// Findings kept (the first ones; the count of the rest is reported).
  static constexpr int kKept = 8;

  /// Adds one finding; one with a `key` already reported counts as one more like it.
  void report(const std::string& finding, const std::string& key = {}) {
    if (!key.empty()) {
      const auto it = keyed_.find(key);
      if (it != keyed_.end()) {
        if (it->second >= 0) {
          ++like_[static_cast<std::size_t>(it->second)];
        } else {
          ++dropped_;
        }
        return;
      }
    }
    if (static_cast<int>(kept_.size()) < kKept) {
      if (!key.empty()) {
        keyed_.emplace(key, static_cast<int>(kept_.size()));
      }
      kept_.push_back(finding);
      like_.push_back(0);
    } else {
      if (!key.empty()) {
        keyed_.emplace(key, -1);
      }
      ++dropped_;
    }
  }
  /// The findings kept (each with how many more like it), then "... and N more finding(s)"
  /// when some were not.
  std::vector<std::string> list() const {
    std::vector<std::string> f;
    for (std::size_t i = 0; i < kept_.size(); ++i) {
      f.push_back(like_[i] == 0 ? kept_[i]
                                : kept_[i] + " (and " + std::to_string(like_[i]) +
                                      " more like it: the same lines, other threads or elements)");
    }
    if (dropped_ > 0) {
      f.push_back("... and " + std::to_string(dropped_) + " more finding(s)");
    }
    return f;
  }
  /// Forgets every finding: a new run starts.
  void clear() {
    kept_.clear();
    like_.clear();
    keyed_.clear();
    dropped_ = 0;
  }

private:
  std::vector<std::string> kept_;
  std::vector<int> like_;            // per kept finding: how many more like it
  std::map<std::string, int> keyed_; // key -> its kept finding, or -1 (dropped)
  int dropped_ = 0;
};

} // namespace kit::cpu_runtime
