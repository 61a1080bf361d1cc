// The hardware counters of the kernels you do not write. The copy and the naive transpose
// never touch shared memory: their trace is empty, and the counters must read zero. The
// faster variants (faster.hpp) keep every shared access at the ideal of its width.
#include <gtest/gtest.h>

#include <demo.hpp>
#include <faster.hpp>

#include "kit/bank_model.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, CopyAndNaiveUseNoSharedMemory) {
  for (const auto& [rows, cols] : {std::pair{256, 256}, std::pair{1000, 777}}) {
    const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    kit::DeviceBuffer<float> in(n), out(n);
    in.fill_bytes(0);
    const kit::Trace none; // no shared-memory instruction at all
    const std::string size = " " + std::to_string(rows) + " x " + std::to_string(cols);
    expect_counts("copy_matrix" + size, none,
                  [&] { lesson05::copy_matrix(in.get(), out.get(), rows, cols, nullptr); });
    expect_counts("transpose_naive" + size, none,
                  [&] { lesson05::transpose_naive(in.get(), out.get(), rows, cols, nullptr); });
  }
}

TEST_F(DemoCounters, FasterVariantsAreConflictFree) {
  // Full tiles of every variant (1024 is a multiple of 64): each takes its fast path.
  constexpr int kSide = 1024;
  const int ideal = kit::ideal_wavefronts(sizeof(float));
  kit::DeviceBuffer<float> in(kSide * kSide), out(kSide * kSide);
  in.fill_bytes(0);
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    const kit::SharedCounters c =
        session().measure([&] { v.op(in.get(), out.get(), kSide, kSide, nullptr); });
    kit::SharedCounts conflict_free;
    conflict_free.load_requests = c.sass.load_requests;
    conflict_free.load_wavefronts = c.sass.load_requests * static_cast<std::uint64_t>(ideal);
    conflict_free.store_requests = c.sass.store_requests;
    conflict_free.store_wavefronts = c.sass.store_requests * static_cast<std::uint64_t>(ideal);
    kit::testing::report(v.name, c, conflict_free);
    EXPECT_TRUE(kit::testing::counts_match(c, conflict_free))
        << v.name << ": a shared access costs more than the ideal " << ideal << " wavefront";
    if (v.transposes) {
      EXPECT_GT(c.sass.load_requests, 0u) << v.name << " should stage through shared memory";
    }
  }
}

} // namespace
