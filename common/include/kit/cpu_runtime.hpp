/// @file cpu_runtime.hpp
/// @brief The CPU run of a course kernel: the same kernel source, compiled by the host compiler,
/// runs each block's threads as cooperative fibers that switch at `__syncthreads()`; blocks run
/// one after another. Every access to a kit::SharedTile is recorded (thread, byte, width, load or
/// store, the source line) and checked; accesses past a kit::cpu::GuardedBuffer fault on a guard
/// page and are reported by thread and element.
///
/// What it checks, by thread and line:
///   - shared memory: an element outside the tile, a misaligned typed access, a read of bytes no
///     thread of the block has written, a race (two threads, overlapping bytes, no barrier
///     between, at least one store: byte granularity, so two threads writing the two halves of
///     one word do not race);
///   - barriers: a `__syncthreads()` that not every thread of the block reaches, or threads that
///     wait at barriers of different lines;
///   - global memory: a read or write past the end (or before the start, beyond the page) of a
///     GuardedBuffer: the kernel stops there, and the report names the thread and the element.
/// It groups the shared accesses of a block into warp requests by (warp, source line, load or
/// store, n-th execution of that line by each lane), which is what the hardware issues when the
/// lanes of a warp run the same instruction, and hands them to the bank model (kit::Trace).
///
/// What it cannot do: time anything, model the GPU's reconvergence (a lane that skips an access
/// in one iteration and not in another is grouped with the wrong request: keep `if`s around whole
/// accesses, loop bounds warp-uniform), tell two shared accesses of one kind on one source line
/// apart (write one per line), let a thread wait for another except at `__syncthreads()` (a
/// spin loop never yields: the test times out), or run warp shuffles, `__syncwarp`, atomics,
/// ldmatrix or TMA (GPU only).
///
/// The pieces, one concern each; the Runtime here composes them:
///   - kit/cpu_findings.hpp: the words of every finding (a thread, a source line) and the list;
///   - kit/cpu_shared_shadow.hpp: the tiles, their shadow bytes and the shared-memory checks;
///   - kit/cpu_requests.hpp: the grouping of a block's accesses into warp requests;
///   - kit/cpu_global_guard.hpp: global memory's guard pages and the fault that names an overrun.
///
/// You do not include this file: kit/shared_tile.hpp and kit/launch.hpp include it (through
/// kit/cpu_cuda.hpp, what CUDA gives a kernel, on the host) in a host build. Tests use
/// kit/cpu_run.hpp.
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_runtime.hpp is the CPU path of the course's kernels: nvcc builds them for the GPU"
#endif

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"
#include "kit/cpu_findings.hpp"
#include "kit/cpu_global_guard.hpp"
#include "kit/cpu_requests.hpp"
#include "kit/cpu_shared_shadow.hpp"

namespace kit::cpu_runtime {

/// The state of the CPU run: the one block running, its fibers, the recording and the findings.
class Runtime {
public:
  /// Threads in a block at most.
  static constexpr int kMaxThreads = 1024;
  /// Bytes of one fiber's stack.
  static constexpr std::size_t kStackBytes = 256 * 1024;

  /// The process's runtime.
  static Runtime& get() {
    static Runtime r;
    return r;
  }

  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // ---- the tiles and buffers ------------------------------------------------------------

  /// Registers a tile's storage; returns its index. `kind` names the tile's type: a
  /// declaration (file, line, kind) constructed twice in one block is a tile declared without
  /// KIT_SHARED (one per thread), which is reported.
  int add_tile(unsigned char* bytes, std::size_t size, int rows, int cols, std::size_t elem,
               const char* file, int line, const char* kind) {
    return shadow_.add_tile(bytes, size, rows, cols, elem, file, line, kind, in_kernel_,
                            block_threads());
  }

  /// Forgets a tile's storage (its object is gone); its index stays taken.
  void remove_tile(int id) { shadow_.remove_tile(id); }

  /// Registers a global buffer.
  void add_buffer(const BufferRecord& b) { guard_.add_buffer(b); }
  /// Forgets a global buffer.
  void remove_buffer(const void* begin) { guard_.remove_buffer(begin); }

  // ---- what a kernel calls -----------------------------------------------------------------

  dim3 block_idx;  ///< The running block's blockIdx.
  dim3 thread_idx; ///< The running thread's threadIdx.
  dim3 block_dim;  ///< The launch's blockDim.
  dim3 grid_dim;   ///< The launch's gridDim.

  /// A barrier: the thread waits until every thread of the block reaches one.
  void barrier(const char* file, int line) {
    require_kernel("__syncthreads()");
    Fiber& f = fibers_[static_cast<std::size_t>(current_)];
    f.state = State::waiting;
    f.barrier = sites_.id(file, line);
    swapcontext(&f.context, &scheduler_);
  }

  /// Records and checks one shared access of `width` bytes at byte `byte` of tile `tile`,
  /// element (row, col). Returns false when the access must not happen (outside the tile,
  /// misaligned): a load then reads zeros, a store writes nothing.
  bool shared_access(int tile, SharedOp op, std::int64_t byte, int width, int row, int col,
                     const char* file, int line) {
    require_kernel("a shared tile");
    const int site = sites_.id(file, line);
    if (!shadow_.check_access(block_threads(), tile, op, byte, width, row, col, site)) {
      return false;
    }
    Access a;
    a.thread = current_;
    a.tile = tile;
    a.byte = static_cast<std::uint32_t>(byte);
    a.width = width;
    a.op = op;
    a.site = site;
    a.row = row;
    a.col = col;
    requests_.record(a);
    return true;
  }

  // ---- a launch ------------------------------------------------------------------------------

  /// Runs `body` as the kernel of a grid x block launch: every block in turn, its threads as
  /// fibers. Does nothing more after a fatal finding (a fault, a barrier not reached).
  void launch(dim3 grid, dim3 block, const std::function<void()>& body) {
    if (in_kernel_) {
      throw std::logic_error("a kernel launched from inside a kernel's CPU run");
    }
    const long threads = static_cast<long>(block.x) * block.y * block.z;
    if (threads <= 0 || threads > kMaxThreads) {
      findings_.report("launch with " + std::to_string(threads) + " threads per block: at most " +
                       std::to_string(kMaxThreads));
      return;
    }
    ++launches_;
    if (stopped_) {
      return;
    }
    grid_dim = grid;
    block_dim = block;
    body_ = &body;
    GlobalGuard::Installed handler(guard_, &Runtime::on_fault);
    for (unsigned bz = 0; bz < grid.z && !stopped_; ++bz) {
      for (unsigned by = 0; by < grid.y && !stopped_; ++by) {
        for (unsigned bx = 0; bx < grid.x && !stopped_; ++bx) {
          run_block(dim3(bx, by, bz), static_cast<int>(threads));
        }
      }
    }
    body_ = nullptr;
  }

  // ---- the recording ---------------------------------------------------------------------

  /// Forgets the recording and the findings: a new run starts.
  void start_recording() {
    requests_.clear();
    shadow_.start_recording();
    findings_.clear();
    launches_ = 0;
    stopped_ = false;
  }
  /// The requests recorded since start_recording(), block by block, in program order.
  const std::vector<Request>& requests() const { return requests_.requests(); }
  /// The findings since start_recording().
  std::vector<std::string> findings() const { return findings_.list(); }
  /// Launches since start_recording().
  int launches() const { return launches_; }

private:
  enum class State { ready, waiting, done };
  struct Fiber {
    ucontext_t context{};
    State state = State::ready;
    int barrier = -1;
  };
  Runtime() = default;

  // A SIGSEGV or SIGBUS: a kernel's (a GuardedBuffer's guard page) jumps back to run_block;
  // any other takes the default action.
  static void on_fault(int sig, siginfo_t* info, void* context) {
    Runtime& r = get();
    if (!r.in_kernel_) { // not the kernel's: the default action
      signal(sig, SIG_DFL);
      return;
    }
    r.guard_.land(info, context);
  }

  static void fiber_main() {
    Runtime& r = get();
    try {
      (*r.body_)();
    } catch (const std::exception& e) {
      r.findings_.report(r.block_threads().me().describe() + " threw: " + e.what());
    } catch (...) {
      r.findings_.report(r.block_threads().me().describe() + " threw an exception");
    }
    r.fibers_[static_cast<std::size_t>(r.current_)].state = State::done;
    // uc_link returns to the scheduler.
  }

  void require_kernel(const char* what) const {
    if (!in_kernel_) {
      throw std::logic_error(std::string(what) + " used outside a kernel's CPU run");
    }
  }

  // The running block's threads, as findings name them.
  BlockThreads block_threads() const { return BlockThreads{block_idx_, block_dim, current_}; }

  void run_block(dim3 block, int threads) {
    block_idx_ = block;
    block_idx = block;
    shadow_.start_block();
    requests_.start_block();
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
      makecontext(&f.context, &Runtime::fiber_main, 0);
    }
    in_kernel_ = true;
    if (sigsetjmp(guard_.landing(), 1) != 0) { // a thread faulted: on_fault jumped here
      in_kernel_ = false;
      findings_.report(guard_.describe_fault(block_threads().me().describe()));
      stopped_ = true;
      return;
    }
    for (;;) {
      for (int t = 0; t < threads; ++t) {
        Fiber& f = fibers_[static_cast<std::size_t>(t)];
        if (f.state != State::ready) {
          continue;
        }
        current_ = t;
        thread_idx = block_threads().id_of(t).thread;
        swapcontext(&scheduler_, &f.context);
      }
      int first_waiting = -1, first_done = -1, other_barrier = -1;
      for (int t = 0; t < threads; ++t) {
        const Fiber& f = fibers_[static_cast<std::size_t>(t)];
        if (f.state == State::waiting) {
          if (first_waiting < 0) {
            first_waiting = t;
          } else if (other_barrier < 0 &&
                     f.barrier != fibers_[static_cast<std::size_t>(first_waiting)].barrier) {
            other_barrier = t;
          }
        } else if (first_done < 0) {
          first_done = t;
        }
      }
      if (first_waiting < 0) {
        shadow_.judge_unwritten(block_threads());
        break; // every thread finished
      }
      const Fiber& w = fibers_[static_cast<std::size_t>(first_waiting)];
      if (first_done >= 0) {
        findings_.report(
            "barrier not reached by every thread: " +
            block_threads().id_of(first_waiting).describe() + " waits at __syncthreads() at " +
            sites_[w.barrier].describe() + ", but " + block_threads().id_of(first_done).describe() +
            " finished the kernel without reaching it (a __syncthreads() inside code that "
            "not every thread of the block runs)");
        in_kernel_ = false;
        stopped_ = true;
        return;
      }
      if (other_barrier >= 0) {
        findings_.report(
            "threads wait at different barriers: " +
            block_threads().id_of(first_waiting).describe() + " at " +
            sites_[w.barrier].describe() + ", " + block_threads().id_of(other_barrier).describe() +
            " at " + sites_[fibers_[static_cast<std::size_t>(other_barrier)].barrier].describe() +
            " (every thread of a block must reach the same __syncthreads())");
      }
      shadow_.pass_barrier(block_threads());
      for (Fiber& f : fibers_) {
        f.state = State::ready;
      }
    }
    in_kernel_ = false;
    requests_.end_block(block, block_dim.x, sites_,
                        [this](int tile) -> const std::string& { return shadow_.tile(tile).name; });
  }

  Sites sites_;
  Findings findings_;
  SharedShadow shadow_{sites_, findings_};
  std::vector<Fiber> fibers_;
  std::vector<std::unique_ptr<unsigned char[]>> stacks_;
  ucontext_t scheduler_{};
  GlobalGuard guard_;
  const std::function<void()>* body_ = nullptr;
  dim3 block_idx_;
  int current_ = 0;
  bool in_kernel_ = false;
  bool stopped_ = false;
  int launches_ = 0;
  WarpRequests requests_;
};

} // namespace kit::cpu_runtime
