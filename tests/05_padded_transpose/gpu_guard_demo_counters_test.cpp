// The hardware counters of the kernels you do not write. The copy and the naive transpose
// never touch shared memory: their trace is empty, and the counters must read zero. The
// faster variants (faster.hpp) issue the shared accesses their traces say, each at the
// ideal of its width.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include <demo.hpp>
#include <faster.hpp>

#include "faster_trace.hpp"
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

TEST_F(DemoCounters, FasterVariantsEqualTheirTraces) {
  // Full tiles of every variant (1024 is a multiple of 64): each takes its fast path. The
  // traces come from faster_layout.hpp, the functions the kernels index the tile with.
  constexpr int kSide = 1024;
  kit::Trace all; // 8-byte accesses among them: their rules were measured on sm_90
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    if (auto t = lesson05::testing::faster_trace(v.name, kSide, kSide)) {
      all.append(*t);
    }
  }
  KIT_REQUIRE_VERIFIED_RULES(all);
  kit::DeviceBuffer<float> in(kSide * kSide), out(kSide * kSide);
  in.fill_bytes(0);
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    const std::optional<kit::Trace> trace = lesson05::testing::faster_trace(v.name, kSide, kSide);
    ASSERT_TRUE(trace.has_value()) << v.name << " has no trace in faster_trace.hpp";
    const std::string what = std::string(v.name) + " 1024 x 1024";
    expect_counts(what, *trace, [&] { v.op(in.get(), out.get(), kSide, kSide, nullptr); });
    EXPECT_EQ(trace->expected(), trace->ideal()) << what << ": the trace itself is not ideal";
  }
}

} // namespace
