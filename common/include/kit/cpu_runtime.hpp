/// @file cpu_runtime.hpp
/// @brief The CPU run of a course kernel: the same kernel source, compiled by the host compiler,
/// runs each block's threads as cooperative fibers that switch at `__syncthreads()`; blocks run
/// one after another. Every access to a kit::SharedTile is recorded (thread, byte, width, load or
/// store, the source line, the bytes it moved: a wrong output value is traced back to the lines
/// that moved it, kit::cpu::KernelRun::moved) and checked; accesses past a kit::cpu::GuardedBuffer
/// fault on a guard page and are reported by thread and element.
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
///   - kit/cpu_fibers.hpp: a block's threads as fibers, and the barrier checks;
///   - kit/cpu_shared_shadow.hpp: the tiles, their shadow bytes and the shared-memory checks;
///   - kit/cpu_requests.hpp: the grouping of a block's accesses into warp requests;
///   - kit/cpu_global_guard.hpp: global memory's guard pages and the fault that names an overrun.
///
///     Runtime& rt = Runtime::get();
///     rt.start_recording();
///     rt.launch(dim3(2, 2), dim3(32, 8), [&] { transpose(in, out, rows, cols); });
///     // inside: threadIdx is rt.thread_idx, __syncthreads() is rt.barrier(file, line),
///     // tile(r, c) is rt.shared_access(...) (kit/cpu_cuda.hpp, kit/shared_tile.hpp)
///     rt.requests(); // the warp requests, block by block
///     rt.findings(); // races, bounds, barriers, faults: empty when none
///
/// You do not include this file: kit/shared_tile.hpp and kit/launch.hpp include it (through
/// kit/cpu_cuda.hpp, what CUDA gives a kernel, on the host) in a host build. Tests use
/// kit/cpu_run.hpp (kit::cpu::record does the above).
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
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/cpu_fibers.hpp"
#include "kit/cpu_findings.hpp"
#include "kit/cpu_global_guard.hpp"
#include "kit/cpu_requests.hpp"
#include "kit/cpu_shared_shadow.hpp"

namespace kit::cpu_runtime {

/// The state of the CPU run: the one block running, its fibers, the recording and the findings.
class Runtime {
public:
  /// Threads in a block at most.
  static constexpr int kMaxThreads = BlockFibers::kMaxThreads;

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
    fibers_.wait_at(sites_.id(file, line));
  }

  /// Records and checks one shared access of `width` bytes at byte `byte` of tile `tile`,
  /// element (row, col); a store's bytes are `stored`. Returns false when the access must not
  /// happen (outside the tile, misaligned): a load then reads zeros, a store writes nothing.
  bool shared_access(int tile, SharedOp op, std::int64_t byte, int width, int row, int col,
                     const char* file, int line, const void* stored = nullptr) {
    require_kernel("a shared tile");
    const int site = sites_.id(file, line);
    if (!shadow_.check_access(block_threads(), tile, op, byte, width, row, col, site)) {
      return false;
    }
    Access a;
    // The value moved: what a load reads is in the tile's storage now (no thread runs between
    // this check and the load).
    const void* value = op == SharedOp::load ? shadow_.tile(tile).bytes + byte : stored;
    if (value != nullptr) {
      std::memcpy(a.value, value,
                  static_cast<std::size_t>(width < kValueBytes ? width : kValueBytes));
    }
    a.thread = fibers_.current();
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

  // What each fiber runs: the kernel, then back to the scheduler.
  static void fiber_main() {
    Runtime& r = get();
    try {
      (*r.body_)();
    } catch (const std::exception& e) {
      r.findings_.report(r.block_threads().me().describe() + " threw: " + e.what());
    } catch (...) {
      r.findings_.report(r.block_threads().me().describe() + " threw an exception");
    }
    r.fibers_.finish();
    // uc_link returns to the scheduler.
  }

  void require_kernel(const char* what) const {
    if (!in_kernel_) {
      throw std::logic_error(std::string(what) + " used outside a kernel's CPU run");
    }
  }

  // The running block's threads, as findings name them.
  BlockThreads block_threads() const {
    return BlockThreads{block_idx_, block_dim, fibers_.current()};
  }

  // One block from its threads' start to their end: then its accesses become warp requests.
  // A fault, or a barrier some thread never reaches, stops it (and the launch) instead.
  void run_block(dim3 block, int threads) {
    enter_block(block, threads);
    in_kernel_ = true;
    if (sigsetjmp(guard_.landing(), 1) != 0) { // a thread faulted: on_fault jumped here
      in_kernel_ = false;
      findings_.report(guard_.describe_fault(block_threads().me().describe()));
      stopped_ = true;
      return;
    }
    const bool finished = run_epochs();
    in_kernel_ = false;
    if (!finished) {
      stopped_ = true;
      return;
    }
    requests_.end_block(block, block_dim.x, sites_,
                        [this](int tile) -> const std::string& { return shadow_.tile(tile).name; });
  }

  // A new block: its index, fresh tiles and recording, a fiber per thread at the kernel's start.
  void enter_block(dim3 block, int threads) {
    block_idx_ = block;
    block_idx = block;
    shadow_.start_block();
    requests_.start_block();
    fibers_.start(threads, &Runtime::fiber_main);
  }

  // Runs the block's threads epoch by epoch (from one barrier to the next) until all finished:
  // true; false when some finished while others wait at a barrier (reported).
  bool run_epochs() {
    for (;;) {
      fibers_.run_ready([this](int t) { thread_idx = block_threads().id_of(t).thread; });
      const BlockFibers::Standing s = fibers_.standing();
      if (s.first_waiting < 0) { // every thread finished
        shadow_.judge_unwritten(block_threads());
        return true;
      }
      if (s.first_done >= 0) {
        findings_.report(fibers_.barrier_not_reached(s, block_threads(), sites_));
        return false;
      }
      if (s.other_barrier >= 0) {
        findings_.report(fibers_.different_barriers(s, block_threads(), sites_));
      }
      shadow_.pass_barrier(block_threads());
      fibers_.release();
    }
  }

  Sites sites_;
  Findings findings_;
  SharedShadow shadow_{sites_, findings_};
  WarpRequests requests_;
  BlockFibers fibers_;
  GlobalGuard guard_;
  const std::function<void()>* body_ = nullptr;
  dim3 block_idx_;
  bool in_kernel_ = false;
  bool stopped_ = false;
  int launches_ = 0;
};

} // namespace kit::cpu_runtime
