/// @file cpu_shared_shadow.hpp
/// @brief Shared memory in the CPU run (kit/cpu_runtime.hpp): the tiles a kernel declared (their
/// storage, poisoned with 0xff bytes at each block's start, and a shadow for every byte) and the
/// checks of every access through a kit::SharedTile, each finding naming threads, elements and
/// lines:
///   - an element outside the tile, and a misaligned typed view (the access does not happen);
///   - a race: two threads, overlapping bytes, no barrier between, one of them a store (byte by
///     byte, so lesson 06's halves of one word do not race);
///   - a read of bytes no thread of the block has written, judged at the next barrier (a store
///     by another thread before that barrier makes it a race instead);
///   - a tile declared without KIT_SHARED (one tile per thread, not shared memory).
///
///     SharedShadow shadow(sites, findings);
///     const int tile = shadow.add_tile(storage, 32 * 33 * 4, 32, 32, 4, __FILE__, __LINE__,
///                                      "float", false, threads);
///     shadow.start_block();                       // a new block: storage and shadow fresh
///     if (shadow.check_access(threads, tile, SharedOp::store, byte, 4, row, col, site)) {
///       std::memcpy(storage + byte, &value, 4);   // checked: the store may happen
///     }
///     shadow.pass_barrier(threads);               // unwritten reads judged; the next epoch
///
/// You do not include this file: kit/cpu_runtime.hpp does.
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_shared_shadow.hpp is the CPU path of the kernels: nvcc builds them for the GPU"
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/cpu_findings.hpp"

namespace kit::cpu_runtime {

/// Shadow state of one byte of a tile, for the race and uninitialised-read checks.
struct ByteShadow {
  int writer = -1;             ///< The thread of the last store.
  int write_epoch = -1;        ///< Its epoch (barriers the block passed before it).
  int write_site = -1;         ///< Its source line.
  int reader[2] = {-1, -1};    ///< Two distinct readers this epoch.
  int read_site[2] = {-1, -1}; ///< Their sites.
  int read_epoch = -1;         ///< The epoch of those reads.
  bool written = false;        ///< Some thread of the block stored it.
};

/// A tile a kernel declared: its storage lives as long as the tile object, one per
/// declaration, shared by every thread of the running block.
struct TileRecord {
  unsigned char* bytes = nullptr; ///< The storage.
  std::size_t size = 0;           ///< Bytes.
  int rows = 0;                   ///< The layout's rows.
  int cols = 0;                   ///< The layout's columns.
  std::size_t elem = 0;           ///< Bytes of one element.
  std::string name;               ///< "the tile of exercise.cu:21".
  std::vector<ByteShadow> shadow; ///< One per byte.
};

/// The tiles of the run and the checks of the running block's accesses to them. Findings go to
/// the run's Findings, lines are named through its Sites.
class SharedShadow {
public:
  /// Checks that name lines through `sites` and report to `findings`.
  SharedShadow(const Sites& sites, Findings& findings) : sites_(sites), findings_(findings) {}
  SharedShadow(const SharedShadow&) = delete;
  SharedShadow& operator=(const SharedShadow&) = delete;

  /// Registers a tile's storage; returns its index. `kind` names the tile's type: a
  /// declaration (file, line, kind) constructed twice in one block (`in_kernel`: by the
  /// running thread of `threads`) is a tile declared without KIT_SHARED (one per thread),
  /// which is reported once a run.
  int add_tile(unsigned char* bytes, std::size_t size, int rows, int cols, std::size_t elem,
               const char* file, int line, const char* kind, bool in_kernel,
               const BlockThreads& threads) {
    TileRecord t;
    t.bytes = bytes;
    t.size = size;
    t.rows = rows;
    t.cols = cols;
    t.elem = elem;
    t.name = "the tile declared at " + base_name(file) + ":" + std::to_string(line);
    t.shadow.assign(size, ByteShadow{});
    if (in_kernel && !declared_in_block_.emplace(t.name, kind).second &&
        redeclared_.insert(t.name).second) {
      findings_.report(
          threads.me().describe() + " declares " + t.name +
          " again: a tile declared without KIT_SHARED is one private tile per thread, "
          "not shared memory; declare it as `KIT_SHARED kit::SharedTile<Layout> tile;`");
    }
    tiles_.push_back(std::move(t));
    reset_tile(tiles_.back());
    return static_cast<int>(tiles_.size()) - 1;
  }

  /// Forgets a tile's storage (its object is gone); its index stays taken.
  void remove_tile(int id) {
    TileRecord& t = tiles_[static_cast<std::size_t>(id)];
    t.bytes = nullptr;
    t.size = 0;
    t.shadow.clear();
  }

  /// Tile `id`.
  const TileRecord& tile(int id) const { return tiles_[static_cast<std::size_t>(id)]; }

  /// A new recording: a tile declared without KIT_SHARED is reported again.
  void start_recording() { redeclared_.clear(); }

  /// A new block: epoch 0, every tile's storage poisoned and its shadow fresh.
  void start_block() {
    epoch_ = 0;
    unwritten_.clear();
    declared_in_block_.clear();
    for (TileRecord& t : tiles_) {
      reset_tile(t);
    }
  }

  /// Checks one access of the running thread of `threads`: `width` bytes at byte `byte` of tile
  /// `tile`, element (row, col), written at line `site`. Returns false when the access must not
  /// happen (outside the tile, misaligned): a load then reads zeros, a store writes nothing.
  bool check_access(const BlockThreads& threads, int tile, SharedOp op, std::int64_t byte,
                    int width, int row, int col, int site) {
    const TileRecord& t = tiles_[static_cast<std::size_t>(tile)];
    const char* verb = op == SharedOp::load ? "reads" : "writes";
    if (row < 0 || row >= t.rows || col < 0 || col >= t.cols || byte < 0 ||
        byte + width > static_cast<std::int64_t>(t.size)) {
      std::ostringstream s;
      s << "shared memory out of bounds: " << threads.me().describe() << " " << verb
        << " tile element (" << row << ", " << col << ") at " << sites_[site].describe()
        << ", outside " << t.name << " (" << t.rows << " x " << t.cols << " elements, " << t.size
        << " bytes)";
      findings_.report(s.str());
      return false;
    }
    if (byte % width != 0) {
      std::ostringstream s;
      s << "misaligned shared access: " << threads.me().describe() << " " << verb << " " << width
        << " bytes at byte " << byte << " of " << t.name << " (tile element (" << row << ", " << col
        << ")) at " << sites_[site].describe() << ": not a multiple of " << width
        << " (on the GPU, a fault)";
      findings_.report(s.str());
      return false;
    }
    check_bytes(threads, tile, op, static_cast<std::size_t>(byte), width, row, col, site);
    return true;
  }

  /// At a barrier every thread of the block reached: the reads of unwritten bytes are judged,
  /// and the next epoch starts.
  void pass_barrier(const BlockThreads& threads) {
    judge_unwritten(threads);
    ++epoch_;
  }

  /// The reads of bytes no thread had stored, at the end of an epoch (a barrier, or the end of
  /// the block): a byte another thread stored later in the same epoch was a race (reported at
  /// that store); the others read memory no thread of the block ever wrote before them.
  void judge_unwritten(const BlockThreads& threads) {
    int last_thread = -1;
    for (const Unwritten& u : unwritten_) {
      const TileRecord& t = tiles_[static_cast<std::size_t>(u.tile)];
      if (u.byte >= t.shadow.size()) {
        continue;
      }
      const ByteShadow& s = t.shadow[u.byte];
      if ((s.written && s.write_epoch == epoch_) || u.thread == last_thread) {
        continue;
      }
      last_thread = u.thread;
      std::ostringstream m;
      m << "uninitialised shared read: " << threads.id_of(u.thread).describe()
        << " reads tile element (" << u.row << ", " << u.col << ") of " << t.name << " at "
        << sites_[u.site].describe() << ", which no thread of the block has written before it";
      // One finding per line and tile: a wrong index reads many unwritten elements alike.
      findings_.report(m.str(), "uninitialised " + t.name + " " + sites_[u.site].describe());
    }
    unwritten_.clear();
  }

private:
  struct Unwritten { // a read of a byte no thread had stored, judged at the next barrier
    int thread = 0, site = 0;
    int tile = 0; // an index: tiles_ grows when a kernel first declares a tile
    std::size_t byte = 0;
    int row = 0, col = 0;
  };

  static void reset_tile(TileRecord& t) {
    if (t.bytes == nullptr) {
      return;
    }
    std::memset(t.bytes, 0xff, t.size); // poison: a float reads NaN, a half NaN
    std::fill(t.shadow.begin(), t.shadow.end(), ByteShadow{});
  }

  // The race check, byte by byte, and the reads of unwritten bytes kept for judge_unwritten().
  void check_bytes(const BlockThreads& threads, int tile, SharedOp op, std::size_t byte, int width,
                   int row, int col, int site) {
    TileRecord& t = tiles_[static_cast<std::size_t>(tile)];
    const int me = threads.current;
    bool reported = false;
    const auto race = [&](const char* kind, int other, int other_site) {
      if (reported) {
        return;
      }
      reported = true;
      std::ostringstream s;
      s << "shared-memory race (" << kind << ") on tile element (" << row << ", " << col << ") of "
        << t.name << ": " << threads.me().describe() << " "
        << (op == SharedOp::load ? "reads" : "writes") << " it at " << sites_[site].describe()
        << ", and " << threads.id_of(other).describe() << " "
        << (std::string(kind) == "read after write" || std::string(kind) == "write after write"
                ? "wrote"
                : "read")
        << " it at " << sites_[other_site].describe()
        << " with no __syncthreads() between (overlapping bytes, one of them a write)";
      findings_.report(s.str(), std::string("race ") + kind + " " + sites_[site].describe() + " " +
                                    sites_[other_site].describe());
    };
    for (std::size_t b = byte; b < byte + static_cast<std::size_t>(width); ++b) {
      ByteShadow& s = t.shadow[b];
      if (op == SharedOp::load) {
        if (!s.written) {
          // Judged at the next barrier: a store by another thread before it makes this a race.
          unwritten_.push_back(Unwritten{me, site, tile, b, row, col});
        } else if (s.write_epoch == epoch_ && s.writer != me) {
          race("read after write", s.writer, s.write_site);
        }
        if (s.read_epoch != epoch_) {
          s.read_epoch = epoch_;
          s.reader[0] = me;
          s.read_site[0] = site;
          s.reader[1] = -1;
        } else if (s.reader[0] != me && s.reader[1] < 0) {
          s.reader[1] = me;
          s.read_site[1] = site;
        }
      } else {
        if (s.write_epoch == epoch_ && s.writer != me) {
          race("write after write", s.writer, s.write_site);
        } else if (s.read_epoch == epoch_) {
          for (int k = 0; k < 2; ++k) {
            if (s.reader[k] >= 0 && s.reader[k] != me) {
              race("write after read", s.reader[k], s.read_site[k]);
              break;
            }
          }
        }
        s.writer = me;
        s.write_epoch = epoch_;
        s.write_site = site;
        s.written = true;
      }
    }
  }

  const Sites& sites_;
  Findings& findings_;
  std::vector<TileRecord> tiles_;
  std::vector<Unwritten> unwritten_;
  int epoch_ = 0;
  std::set<std::string> redeclared_;
  std::set<std::pair<std::string, std::string>> declared_in_block_;
};

} // namespace kit::cpu_runtime
