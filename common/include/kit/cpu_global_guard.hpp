/// @file cpu_global_guard.hpp
/// @brief Global memory in the CPU run (kit/cpu_runtime.hpp): a kernel's global memory is its
/// raw pointers, so an overrun is caught by the hardware. GuardedPages (under
/// kit::cpu::GuardedBuffer) puts a buffer's last byte just before a page the process may not
/// touch, and a page like it before the first; GlobalGuard knows the buffers of the run,
/// installs the fault handler on a stack of its own for one launch, keeps the faulting address
/// and jumps back to the scheduler, which stops that launch; describe_fault() names the element
/// and the buffer. (An underrun is caught once it leaves the buffer's first page.) One process,
/// one address space: no fork, no sanitizer runtime.
///
///     GlobalGuard guard;
///     GuardedPages pages(100 * sizeof(float)); // 100 floats, then a page no one may touch
///     guard.add_buffer(pages.record(sizeof(float), "`in`"));
///     GlobalGuard::Installed handler(guard, &on_fault); // on_fault calls guard.land(...)
///     if (sigsetjmp(guard.landing(), 1) != 0) {          // a thread read element 100
///       report(guard.describe_fault("thread (4, 3) of block (0, 0) (warp 3, lane 4)"));
///       // "global memory out of bounds: thread (4, 3) ... reads element 100 of `in`, a buffer
///       // of 100 element(s): 1 past its last element. The kernel stopped there (...)"
///     }
///
/// You do not include this file: kit/cpu_runtime.hpp does; tests use kit::cpu::GuardedBuffer
/// (kit/cpu_run.hpp).
#pragma once

#if defined(__CUDACC__)
#error "kit/cpu_global_guard.hpp is the CPU path of the kernels: nvcc builds them for the GPU"
#endif

#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace kit::cpu_runtime {

/// A global buffer the kernel may touch, with a guard page after it.
struct BufferRecord {
  const unsigned char* begin = nullptr; ///< The first byte.
  std::size_t bytes = 0;                ///< Its size.
  std::size_t elem = 1;                 ///< Bytes of one element.
  const unsigned char* map = nullptr;   ///< The whole mapping (guard pages included).
  std::size_t map_bytes = 0;            ///< Its size.
  std::string name;                     ///< What the test calls it ("in").
};

/// `bytes` bytes that end exactly at a page the process may not touch, and start one page after
/// another such page: a read or write past the end faults at once.
class GuardedPages {
public:
  /// Maps the pages (throws std::runtime_error when it cannot).
  explicit GuardedPages(std::size_t bytes) : bytes_(bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t pages = (bytes + page - 1) / page;
    map_bytes_ = (pages + 2) * page;
    void* m = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
      throw std::runtime_error("GuardedBuffer: mmap failed");
    }
    map_ = static_cast<unsigned char*>(m);
    mprotect(map_, page, PROT_NONE);
    mprotect(map_ + (pages + 1) * page, page, PROT_NONE);
    data_ = map_ + (pages + 1) * page - bytes;
  }
  ~GuardedPages() { munmap(map_, map_bytes_); }
  GuardedPages(const GuardedPages&) = delete;
  GuardedPages& operator=(const GuardedPages&) = delete;

  /// The first byte.
  unsigned char* data() const { return data_; }
  /// The buffer as the guard knows it: elements of `elem` bytes, called `name` in findings.
  BufferRecord record(std::size_t elem, const std::string& name) const {
    BufferRecord r;
    r.begin = data_;
    r.bytes = bytes_;
    r.elem = elem;
    r.map = map_;
    r.map_bytes = map_bytes_;
    r.name = name;
    return r;
  }

private:
  std::size_t bytes_;
  std::size_t map_bytes_ = 0;
  unsigned char* map_ = nullptr;
  unsigned char* data_ = nullptr;
};

/// The buffers of the run, the fault handler's stack, and the last fault of a kernel.
class GlobalGuard {
public:
  /// Bytes of the stack the fault handler runs on.
  static constexpr std::size_t kSignalStackBytes = 64 * 1024;

  /// A signal handler (SA_SIGINFO).
  using Handler = void (*)(int, siginfo_t*, void*);

  GlobalGuard() : signal_stack_(kSignalStackBytes) {}
  GlobalGuard(const GlobalGuard&) = delete;
  GlobalGuard& operator=(const GlobalGuard&) = delete;

  /// Registers a global buffer.
  void add_buffer(const BufferRecord& b) { buffers_.push_back(b); }
  /// Forgets a global buffer.
  void remove_buffer(const void* begin) {
    for (auto it = buffers_.begin(); it != buffers_.end(); ++it) {
      if (it->begin == begin) {
        buffers_.erase(it);
        return;
      }
    }
  }

  /// Installs `handler` for SIGSEGV and SIGBUS, on the guard's own stack (a fiber's stack may be
  /// what overflowed), for one launch; restores the old handlers and stack after.
  class Installed {
  public:
    /// Installs `handler`.
    Installed(GlobalGuard& guard, Handler handler) {
      stack_t ss{};
      ss.ss_sp = guard.signal_stack_.data();
      ss.ss_size = guard.signal_stack_.size();
      sigaltstack(&ss, &old_stack_);
      struct sigaction sa {};
      sa.sa_sigaction = handler;
      sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&sa.sa_mask);
      sigaction(SIGSEGV, &sa, &old_segv_);
      sigaction(SIGBUS, &sa, &old_bus_);
    }
    ~Installed() {
      sigaction(SIGSEGV, &old_segv_, nullptr);
      sigaction(SIGBUS, &old_bus_, nullptr);
      sigaltstack(&old_stack_, nullptr);
    }
    Installed(const Installed&) = delete;
    Installed& operator=(const Installed&) = delete;

  private:
    stack_t old_stack_{};
    struct sigaction old_segv_ {};
    struct sigaction old_bus_ {};
  };

  /// Where land() jumps: the scheduler sets it with `sigsetjmp(guard.landing(), 1)` before it
  /// runs a block's threads.
  sigjmp_buf& landing() { return landing_; }

  /// In the fault handler, for a fault of the kernel's: keeps the address and whether it was a
  /// write, and jumps to landing(), leaving the faulting thread's fiber behind.
  [[noreturn]] void land(const siginfo_t* info, void* context) {
    fault_.address = info->si_addr;
#if defined(__x86_64__)
    const auto& mc = static_cast<ucontext_t*>(context)->uc_mcontext;
    fault_.write = (mc.gregs[REG_ERR] & 2) != 0;
    fault_.pc = reinterpret_cast<const void*>(mc.gregs[REG_RIP]);
#elif defined(__aarch64__)
    fault_.write = false;
    fault_.pc = reinterpret_cast<const void*>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
#else
    (void)context;
    fault_.write = false;
#endif
    siglongjmp(landing_, 1);
  }

  /// The source line of the instruction that faulted, "exercise.cu:26", from the program's line
  /// table (the CPU run's kernels are built with -g1) through binutils' addr2line; empty when
  /// either is missing. The kernel's files are the ones that matter, so a line in the kit's own
  /// headers (kit/...) or the system's is not named.
  std::string fault_line() const {
    Dl_info info{};
    if (fault_.pc == nullptr || dladdr(fault_.pc, &info) == 0 || info.dli_fname == nullptr ||
        std::strchr(info.dli_fname, '\'') != nullptr) { // the shell line quotes it in '...'
      return {};
    }
    const auto pc = reinterpret_cast<std::uintptr_t>(fault_.pc);
    const auto base = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    std::ostringstream cmd;
    // A position-independent program is read at its offset from where it was loaded.
    cmd << "addr2line -e '" << info.dli_fname << "' 0x" << std::hex << (pc - base)
        << " 2>/dev/null";
    FILE* out = popen(cmd.str().c_str(), "r");
    if (out == nullptr) {
      return {};
    }
    char buf[4096] = {};
    const bool read = std::fgets(buf, sizeof buf, out) != nullptr;
    pclose(out);
    std::string where = read ? std::string(buf) : std::string();
    while (!where.empty() && (where.back() == '\n' || where.back() == ' ')) {
      where.pop_back();
    }
    const std::size_t paren = where.find(" (discriminator");
    if (paren != std::string::npos) {
      where.erase(paren);
    }
    const std::size_t colon = where.rfind(':');
    if (where.empty() || where[0] == '?' || colon == std::string::npos ||
        where.compare(colon, std::string::npos, ":0") == 0 || where.compare(colon, 2, ":?") == 0 ||
        where.find("/kit/") != std::string::npos || where.rfind("/usr/", 0) == 0) {
      return {};
    }
    const std::size_t slash = where.rfind('/', colon);
    return slash == std::string::npos ? where : where.substr(slash + 1);
  }

  /// The finding for the last fault, made by thread `who` (ThreadId::describe()): the element
  /// and the buffer, or the address when it is in no buffer of the run.
  std::string describe_fault(const std::string& who) const {
    const auto* p = static_cast<const unsigned char*>(fault_.address);
    std::ostringstream s;
    s << "global memory out of bounds: " << who << " " << (fault_.write ? "writes" : "reads")
      << " ";
    bool named = false;
    for (const BufferRecord& b : buffers_) {
      if (p >= b.map && p < b.map + b.map_bytes) {
        const std::ptrdiff_t off = p - b.begin;
        const std::ptrdiff_t elem = off >= 0 ? off / static_cast<std::ptrdiff_t>(b.elem)
                                             : -((-off + static_cast<std::ptrdiff_t>(b.elem) - 1) /
                                                 static_cast<std::ptrdiff_t>(b.elem));
        const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(b.bytes / b.elem);
        s << "element " << elem << " of " << b.name << ", a buffer of " << n << " element(s): ";
        if (elem >= n) {
          s << elem - n + 1 << " past its last element";
        } else {
          s << -elem << " before its first element";
        }
        named = true;
        break;
      }
    }
    if (!named) {
      s << "address " << fault_.address << ", outside every buffer of the run";
    }
    const std::string line = fault_line();
    if (!line.empty()) {
      s << " at " << line;
    }
    s << ". The kernel stopped there (on the GPU: compute-sanitizer memcheck reports it, or "
         "the launch fails with an illegal address)";
    return s.str();
  }

private:
  struct Fault {
    const void* address = nullptr;
    const void* pc = nullptr; ///< The faulting instruction.
    bool write = false;
  };

  std::vector<BufferRecord> buffers_;
  std::vector<unsigned char> signal_stack_;
  sigjmp_buf landing_{};
  Fault fault_;
};

} // namespace kit::cpu_runtime
