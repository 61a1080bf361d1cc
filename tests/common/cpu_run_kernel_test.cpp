// The CPU run of a kernel (kit/cpu_runtime.hpp, kit/shared_tile.hpp, kit/launch.hpp): small
// kernels, compiled by the host compiler, whose every shared access is recorded and checked.
// Requests group by warp, line and n-th execution; the findings name threads, elements and lines:
// races at byte granularity, shared and global accesses out of bounds, misaligned views,
// barriers not every thread reaches, a tile declared without KIT_SHARED.
#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <optional>
#include <string>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/cpu_run.hpp"
#include "kit/launch.hpp"
#include "kit/shared_tile.hpp"

namespace {

using Row = kit::Pitched<float, 1, 64>;      // 64 floats in one row
using HalfRow = kit::Pitched<__half, 1, 64>; // 64 halves in one row
using Square = kit::Pitched<float, 32, 32>;  // the plain 32 x 32 tile

/// A string that holds every one of `parts`, for messages.
::testing::AssertionResult holds(const std::string& text, const std::vector<std::string>& parts) {
  for (const std::string& p : parts) {
    if (text.find(p) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << p << "' not in:\n" << text;
    }
  }
  return ::testing::AssertionSuccess();
}

// Thread t stores element 2 t (stride 2: two words per bank), the block waits, thread t reads
// element 2 t back.
__global__ void stride_two(float* out) {
  KIT_SHARED kit::SharedTile<kit::Pitched<float, 1, 128>> tile;
  const int t = static_cast<int>(threadIdx.x + 32 * threadIdx.y);
  tile(0, 2 * t) = static_cast<float>(t);
  tile(0, 2 * t + 1) = 0.0f;
  __syncthreads();
  out[t] = tile(0, 2 * t);
}

TEST(CpuRun, RecordsOneRequestPerWarpAndLine) {
  kit::cpu::GuardedBuffer<float> out(64, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(stride_two, dim3(1), dim3(32, 2), nullptr, out.get()); });
  ASSERT_TRUE(run.findings.empty()) << run.findings_text();
  EXPECT_EQ(run.launches, 1);
  ASSERT_EQ(run.requests.size(), 6u); // 2 warps x (2 stores + 1 load)
  const kit::SharedCounts c = run.trace().expected();
  EXPECT_EQ(c.store_requests, 4u);
  EXPECT_EQ(c.load_requests, 2u);
  EXPECT_EQ(c.load_wavefronts,
            2u * static_cast<unsigned>(kit::wavefronts(kit::strided_access(sizeof(float), 2))));
  EXPECT_EQ(run.requests[0].access.mask, kit::kFullMask);
  EXPECT_EQ(run.requests[0].warp, 0);
  for (int x = 0; x < 32; ++x) {
    EXPECT_EQ(out.to_vector()[static_cast<std::size_t>(x)], static_cast<float>(x));
  }
}

// Lanes past `active` sit out: the request has only the active lanes.
__global__ void ragged(float* out, int active) {
  KIT_SHARED kit::SharedTile<Row> tile;
  const int x = static_cast<int>(threadIdx.x);
  if (x < active) {
    tile(0, x) = 1.0f;
  }
  __syncthreads();
  if (x < active) {
    out[x] = tile(0, x);
  }
}

TEST(CpuRun, LanesThatSitOutAreInactive) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(ragged, dim3(1), dim3(32), nullptr, out.get(), 20); });
  ASSERT_TRUE(run.findings.empty()) << run.findings_text();
  ASSERT_EQ(run.requests.size(), 2u);
  EXPECT_EQ(run.requests[0].access.mask, (1u << 20) - 1);
}

// Lane x stores half x: lanes 2k and 2k + 1 share a word, not a byte. With `same`, every lane
// stores half 0.
__global__ void halves(__half* out, bool same) {
  KIT_SHARED kit::SharedTile<HalfRow> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, same ? 0 : x) = __float2half(1.0f);
  __syncthreads();
  out[x] = tile(0, x);
}

TEST(CpuRun, RacesAreJudgedByTheByte) {
  kit::cpu::GuardedBuffer<__half> out(32, "out");
  const kit::cpu::KernelRun fine =
      kit::cpu::record([&] { kit::launch(halves, dim3(1), dim3(32), nullptr, out.get(), false); });
  EXPECT_TRUE(fine.findings.empty()) << fine.findings_text();
  const kit::cpu::KernelRun racy =
      kit::cpu::record([&] { kit::launch(halves, dim3(1), dim3(32), nullptr, out.get(), true); });
  ASSERT_FALSE(racy.findings.empty());
  EXPECT_TRUE(
      holds(racy.findings[0], {"shared-memory race (write after write) on tile element (0, 0)",
                               "thread (1, 0) of block (0, 0)", "thread (0, 0) of block (0, 0)",
                               "cpu_run_kernel_test.cpp:"}));
}

// No barrier between lane x's store and lane (x + 1)'s load of the same element.
__global__ void no_barrier(float* out) {
  KIT_SHARED kit::SharedTile<Row> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, x) = 1.0f;
  out[x] = tile(0, (x + 1) % 32);
}

TEST(CpuRun, AMissingBarrierIsARaceNamingBothThreadsAndLines) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(no_barrier, dim3(1), dim3(32), nullptr, out.get()); });
  ASSERT_FALSE(run.findings.empty());
  // Thread 0 reads element 1 before thread 1 (a later fiber) stores it: a race, not an
  // uninitialised read.
  EXPECT_TRUE(
      holds(run.findings[0],
            {"shared-memory race (write after read) on tile element (0, 1)",
             "thread (1, 0) of block (0, 0)", "writes it at", "thread (0, 0) of block (0, 0)",
             "read it at", "with no __syncthreads() between"}));
  // The same race between the same two lines, on 30 more elements: one finding and a count,
  // not 31 findings; lane 31's read of element 0, which lane 0 wrote first, is the other kind.
  ASSERT_EQ(run.findings.size(), 2u) << run.findings_text();
  EXPECT_TRUE(holds(run.findings[1], {"shared-memory race (read after write) on tile element "
                                      "(0, 0)",
                                      "thread (31, 0) of block (0, 0)"}))
      << run.findings[1];
  EXPECT_TRUE(holds(run.findings[0], {"(and 30 more like it: the same lines, other threads or "
                                      "elements)"}))
      << run.findings[0];
}

// Thread x reads element x + `past` of a row of 64.
__global__ void shared_overrun(float* out, int past) {
  KIT_SHARED kit::SharedTile<Row> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, 2 * x) = 0.0f;
  tile(0, 2 * x + 1) = 0.0f;
  __syncthreads();
  out[x] = tile(0, x + past);
}

TEST(CpuRun, ASharedElementOutsideTheTileIsNamed) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run = kit::cpu::record(
      [&] { kit::launch(shared_overrun, dim3(1), dim3(32), nullptr, out.get(), 33); });
  ASSERT_FALSE(run.findings.empty());
  EXPECT_TRUE(
      holds(run.findings[0], {"shared memory out of bounds: thread (31, 0) of block (0, 0)",
                              "reads tile element (0, 64)", "outside the tile declared at"}));
}

// Thread x writes out[x + past]: past the end of a 32-element buffer for x >= 32 - past.
constexpr int kOverrunLine = __LINE__ + 3; // the store's line, which the finding names
__global__ void global_overrun(float* out, int past) {
  const int x = static_cast<int>(threadIdx.x);
  out[x + past] = 1.0f;
}

TEST(CpuRun, AGlobalAccessPastTheEndIsNamedAndStopsTheKernel) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run = kit::cpu::record(
      [&] { kit::launch(global_overrun, dim3(2), dim3(32), nullptr, out.get(), 1); });
  ASSERT_EQ(run.findings.size(), 1u) << run.findings_text();
  EXPECT_TRUE(holds(run.findings[0],
                    {"global memory out of bounds: thread (31, 0) of block (0, 0)",
                     "writes element 32 of `out`, a buffer of 32 element(s): 1 past its last "
                     "element at cpu_run_kernel_test.cpp:" +
                         std::to_string(kOverrunLine) + "."}));
  // The launch stopped at the fault: the next one runs again.
  const kit::cpu::KernelRun next = kit::cpu::record(
      [&] { kit::launch(global_overrun, dim3(1), dim3(32), nullptr, out.get(), 0); });
  EXPECT_TRUE(next.findings.empty()) << next.findings_text();
}

// A pair of halves at an odd element: a misaligned 4-byte access.
__global__ void misaligned_pair(__half* out) {
  KIT_SHARED kit::SharedTile<HalfRow> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile.as<__half2>(0, 2 * x + 1) = __floats2half2_rn(1.0f, 2.0f);
  out[x] = __float2half(0.0f);
}

TEST(CpuRun, AMisalignedViewIsNamed) {
  kit::cpu::GuardedBuffer<__half> out(32, "out");
  const kit::cpu::KernelRun run = kit::cpu::record(
      [&] { kit::launch(misaligned_pair, dim3(1), dim3(16), nullptr, out.get()); });
  ASSERT_FALSE(run.findings.empty());
  EXPECT_TRUE(holds(run.findings[0], {"misaligned shared access: thread (0, 0) of block (0, 0)",
                                      "writes 4 bytes at byte 2", "tile element (0, 1)"}));
}

// Only the first 16 threads reach the barrier.
__global__ void half_barrier(float* out) {
  KIT_SHARED kit::SharedTile<Row> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, x) = 1.0f;
  if (x < 16) {
    __syncthreads();
  }
  out[x] = 0.0f;
}

TEST(CpuRun, ABarrierNotEveryThreadReachesIsNamed) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(half_barrier, dim3(1), dim3(32), nullptr, out.get()); });
  ASSERT_FALSE(run.findings.empty());
  EXPECT_TRUE(holds(run.findings[0],
                    {"barrier not reached by every thread: thread (0, 0)",
                     "waits at __syncthreads() at cpu_run_kernel_test.cpp:",
                     "thread (16, 0) of block (0, 0)", "finished the kernel without reaching it"}));
}

// One kernel template, two tiles: each instantiation has its own.
template <class Tile>
__global__ void copy_through(float* out) {
  KIT_SHARED kit::SharedTile<Tile> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, x) = static_cast<float>(x);
  __syncthreads();
  out[x] = tile(0, (x + 1) % 32);
}

TEST(CpuRun, EachInstantiationOfAKernelHasItsOwnTile) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  for (int round = 0; round < 2; ++round) {
    const kit::cpu::KernelRun a = kit::cpu::record(
        [&] { kit::launch(copy_through<Row>, dim3(2), dim3(32), nullptr, out.get()); });
    EXPECT_TRUE(a.findings.empty()) << a.findings_text();
    const kit::cpu::KernelRun b = kit::cpu::record(
        [&] { kit::launch(copy_through<Square>, dim3(2), dim3(32), nullptr, out.get()); });
    EXPECT_TRUE(b.findings.empty()) << b.findings_text();
    EXPECT_EQ(out.to_vector()[0], 1.0f);
  }
}

// The tile is declared without KIT_SHARED: one private tile per thread.
__global__ void private_tile(float* out) {
  kit::SharedTile<Square> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, x) = 1.0f;
  out[x] = tile(0, x);
}

TEST(CpuRun, ATileWithoutKitSharedIsNamed) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(private_tile, dim3(1), dim3(32), nullptr, out.get()); });
  ASSERT_EQ(run.findings.size(), 1u) << run.findings_text();
  EXPECT_TRUE(holds(run.findings[0], {"thread (1, 0) of block (0, 0)", "again",
                                      "KIT_SHARED kit::SharedTile<Layout> tile;"}));
}

// Thread x stores x + 1 in element x; after the barrier, thread x reads element x + 1.
constexpr int kMovedStoreLine = __LINE__ + 5; // the lines moved() names
constexpr int kMovedLoadLine = __LINE__ + 6;
__global__ void shift_left(float* out) {
  KIT_SHARED kit::SharedTile<Row> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile(0, x) = static_cast<float>(x + 1);
  __syncthreads();
  out[x] = tile(0, (x + 1) % 32);
}

TEST(CpuRun, AValueIsTracedToTheThreadsAndLinesThatMovedIt) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(shift_left, dim3(1), dim3(32), nullptr, out.get()); });
  ASSERT_TRUE(run.findings.empty()) << run.findings_text();
  const float six = out.to_vector()[4]; // thread 4 read element 5, which thread 5 stored
  const std::optional<std::string> how = run.moved(&six, sizeof six);
  ASSERT_TRUE(how.has_value());
  const std::string file = "cpu_run_kernel_test.cpp:";
  EXPECT_EQ(*how, "thread (4, 0) of block (0, 0) read it at " + file +
                      std::to_string(kMovedLoadLine) +
                      " from tile element (0, 5), where thread "
                      "(5, 0) had stored it at " +
                      file + std::to_string(kMovedStoreLine) + " in tile element (0, 5)");
  const float none = 1000.0f; // no access moved it
  EXPECT_FALSE(run.moved(&none, sizeof none).has_value());
}

// Thread x stores the pair (2 x, 2 x + 1) at elements 2 x, 2 x + 1; after the barrier, thread
// x loads the pair of thread x + 1 and writes its two halves.
__global__ void shift_pairs(__half* out) {
  KIT_SHARED kit::SharedTile<HalfRow> tile;
  const int x = static_cast<int>(threadIdx.x);
  tile.as<__half2>(0, 2 * x) =
      __halves2half2(__ushort_as_half(static_cast<unsigned short>(2 * x)),
                     __ushort_as_half(static_cast<unsigned short>(2 * x + 1)));
  __syncthreads();
  const __half2 p = tile.as<__half2>(0, 2 * ((x + 1) % 32));
  out[2 * x] = __low2half(p);
  out[2 * x + 1] = __high2half(p);
}

TEST(CpuRun, AHalfInAPairIsNamedByItsHalf) {
  kit::cpu::GuardedBuffer<__half> out(64, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(shift_pairs, dim3(1), dim3(32), nullptr, out.get()); });
  ASSERT_TRUE(run.findings.empty()) << run.findings_text();
  const unsigned short eleven = 11; // the high half of thread 5's pair, which thread 4 loaded
  const std::optional<std::string> how = run.moved(&eleven, sizeof eleven);
  ASSERT_TRUE(how.has_value());
  EXPECT_TRUE(holds(*how, {"thread (4, 0) of block (0, 0) read it at cpu_run_kernel_test.cpp:",
                           "as the high half of the 4-byte load of tile element (0, 10)",
                           "where thread (5, 0) had stored it at cpu_run_kernel_test.cpp:",
                           "as the high half of the 4-byte store to tile element (0, 10)"}))
      << *how;
}

// Every thread reads an element no thread wrote.
__global__ void unwritten(float* out) {
  KIT_SHARED kit::SharedTile<Row> tile;
  const int x = static_cast<int>(threadIdx.x);
  out[x] = tile(0, x);
}

TEST(CpuRun, UninitialisedReadsOfOneLineAreOneFinding) {
  kit::cpu::GuardedBuffer<float> out(32, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(unwritten, dim3(1), dim3(32), nullptr, out.get()); });
  ASSERT_EQ(run.findings.size(), 1u) << run.findings_text();
  EXPECT_TRUE(holds(run.findings[0], {"uninitialised shared read: thread (0, 0) of block (0, 0)",
                                      "reads tile element (0, 0)",
                                      "(and 31 more like it: the same lines, other threads or "
                                      "elements)"}))
      << run.findings[0];
}

TEST(CpuRun, ARequestOverItsIdealNamesTheLanesThatCollide) {
  kit::cpu::GuardedBuffer<float> out(64, "out");
  const kit::cpu::KernelRun run =
      kit::cpu::record([&] { kit::launch(stride_two, dim3(1), dim3(32, 2), nullptr, out.get()); });
  ASSERT_TRUE(run.findings.empty()) << run.findings_text();
  const std::optional<std::string> over = run.first_over_ideal();
  ASSERT_TRUE(over.has_value());
  // Stride 2: lanes 0 and 16 ask bank 0 for words 0 and 32; lanes 1, 2 and 3 collide with no
  // one and are not listed.
  EXPECT_TRUE(holds(*over, {"warp 0 of block (0, 0), cpu_run_kernel_test.cpp:",
                            "4-byte store: 32 active lane(s), more wavefronts than the ideal",
                            "lanes 0 and 16 (threads (0, 0) and (16, 0)) ask bank 0 for different "
                            "words: tile elements (0, 0) and (0, 32)"}))
      << *over;
  EXPECT_EQ(over->find("lane 1 "), std::string::npos) << *over;
}

} // namespace
