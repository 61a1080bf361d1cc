/// @file cpu_fibers.hpp
/// @brief The threads of one block in the CPU run (kit/cpu_runtime.hpp): a `ucontext` fiber per
/// thread, each on a stack of its own, that gives the CPU back only at a `__syncthreads()` or at
/// the end of the kernel. The scheduler runs every ready fiber in thread order; when none is
/// ready it asks where they stand (BlockFibers::standing): all finished, all waiting at one
/// barrier (released together: the next epoch), or the barrier checks' two findings: a
/// `__syncthreads()` some thread finished the kernel without reaching, or threads waiting at
/// barriers of different lines.
///
///     BlockFibers fibers;
///     fibers.start(64, &thread_main); // 64 fibers, each to run thread_main()
///     // thread_main() calls fibers.wait_at(site) at a barrier, fibers.finish() at its end
///     fibers.run_ready([&](int t) { /* thread t runs next */ });
///     const BlockFibers::Standing s = fibers.standing();
///     if (s.first_waiting >= 0 && s.first_done < 0) {
///       fibers.release(); // every thread reached a barrier: all run on
///     }
///
/// You do not include this file: kit/cpu_runtime.hpp does.
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_fibers.hpp is the CPU path of the kernels: nvcc builds them for the GPU"
#endif

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <ucontext.h>

#include "kit/cpu_findings.hpp"

namespace kit::cpu_runtime {

/// The fibers of the running block, the scheduler they return to, and which one runs.
class BlockFibers {
public:
  /// Threads in a block at most.
  static constexpr int kMaxThreads = 1024;
  /// Bytes of one fiber's stack.
  static constexpr std::size_t kStackBytes = 256 * 1024;

  /// Where the fibers stand once none is ready, by linear thread index (-1: none).
  struct Standing {
    int first_waiting = -1; ///< The first thread waiting at a barrier.
    int first_done = -1;    ///< The first thread that finished the kernel.
    int other_barrier = -1; ///< The first thread waiting at another line than first_waiting.
  };

  /// `threads` fresh fibers (at most kMaxThreads), each to run `entry` from its start and to
  /// return to the scheduler when `entry` returns. The stacks are made once and kept for the
  /// blocks after.
  void start(int threads, void (*entry)()) {
    if (stacks_.empty()) {
      stacks_.resize(static_cast<std::size_t>(kMaxThreads));
    }
    fibers_.assign(static_cast<std::size_t>(threads), Fiber{});
    for (int t = 0; t < threads; ++t) {
      auto& stack = stacks_[static_cast<std::size_t>(t)];
      if (!stack) {
        stack.reset(new unsigned char[kStackBytes]);
      }
      Fiber& f = fibers_[static_cast<std::size_t>(t)];
      getcontext(&f.context);
      f.context.uc_stack.ss_sp = stack.get();
      f.context.uc_stack.ss_size = kStackBytes;
      f.context.uc_link = &scheduler_;
      makecontext(&f.context, entry, 0);
    }
  }

  /// Runs each ready fiber in thread order until it waits at a barrier or finishes;
  /// `before(t)` is called just before thread t runs (current() is t by then).
  template <class Before>
  void run_ready(const Before& before) {
    const int threads = static_cast<int>(fibers_.size());
    for (int t = 0; t < threads; ++t) {
      Fiber& f = fibers_[static_cast<std::size_t>(t)];
      if (f.state != State::ready) {
        continue;
      }
      current_ = t;
      before(t);
      swapcontext(&scheduler_, &f.context);
    }
  }

  /// Called by the running fiber at a barrier (of source line `site`): it waits there, and the
  /// scheduler runs the next, until release().
  void wait_at(int site) {
    Fiber& f = fibers_[static_cast<std::size_t>(current_)];
    f.state = State::waiting;
    f.barrier = site;
    swapcontext(&f.context, &scheduler_);
  }

  /// Called by the running fiber when the kernel returned: it never runs again this block.
  void finish() { fibers_[static_cast<std::size_t>(current_)].state = State::done; }

  /// The linear index of the thread that runs now (or ran last).
  int current() const { return current_; }

  /// Where the fibers stand (call once run_ready() returned: none is ready).
  Standing standing() const {
    Standing s;
    const int threads = static_cast<int>(fibers_.size());
    for (int t = 0; t < threads; ++t) {
      const Fiber& f = fibers_[static_cast<std::size_t>(t)];
      if (f.state == State::waiting) {
        if (s.first_waiting < 0) {
          s.first_waiting = t;
        } else if (s.other_barrier < 0 &&
                   f.barrier != fibers_[static_cast<std::size_t>(s.first_waiting)].barrier) {
          s.other_barrier = t;
        }
      } else if (s.first_done < 0) {
        s.first_done = t;
      }
    }
    return s;
  }

  /// Every fiber waits at a barrier: all are ready again (the next epoch).
  void release() {
    for (Fiber& f : fibers_) {
      f.state = State::ready;
    }
  }

  /// The finding when s.first_done finished the kernel while s.first_waiting waits at a barrier.
  std::string barrier_not_reached(const Standing& s, const BlockThreads& threads,
                                  const Sites& sites) const {
    return "barrier not reached by every thread: " + threads.id_of(s.first_waiting).describe() +
           " waits at __syncthreads() at " + sites[barrier_of(s.first_waiting)].describe() +
           ", but " + threads.id_of(s.first_done).describe() +
           " finished the kernel without reaching it (a __syncthreads() inside code that "
           "not every thread of the block runs)";
  }

  /// The finding when s.first_waiting and s.other_barrier wait at barriers of different lines.
  std::string different_barriers(const Standing& s, const BlockThreads& threads,
                                 const Sites& sites) const {
    return "threads wait at different barriers: " + threads.id_of(s.first_waiting).describe() +
           " at " + sites[barrier_of(s.first_waiting)].describe() + ", " +
           threads.id_of(s.other_barrier).describe() + " at " +
           sites[barrier_of(s.other_barrier)].describe() +
           " (every thread of a block must reach the same __syncthreads())";
  }

private:
  enum class State { ready, waiting, done };
  struct Fiber {
    ucontext_t context{};
    State state = State::ready;
    int barrier = -1; // the site of the barrier it waits at
  };

  int barrier_of(int t) const { return fibers_[static_cast<std::size_t>(t)].barrier; }

  std::vector<Fiber> fibers_;
  std::vector<std::unique_ptr<unsigned char[]>> stacks_;
  ucontext_t scheduler_{};
  int current_ = 0;
};

} // namespace kit::cpu_runtime
