// The hardware counters of the kernels you do not write. The copy and the naive transpose
// never touch shared memory: their trace is empty, and the counters must read zero.
#include <gtest/gtest.h>

#include <string>

#include <demo.hpp>

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

} // namespace
