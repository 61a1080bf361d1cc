// The bank model predicts every kernel of the family exactly: the counters equal the trace
// built from the kernel's own index functions and layouts, requests included (a merged,
// split or dropped access would show there); and each demo instruction alone, in the pattern
// microbenchmark, reads what the model says.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "gemm_run.hpp"
#include "gemm_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

using lesson09::testing::Strided;
using lesson09::testing::StridedByFour;

class GemmTrace : public kit::testing::CounterTest {};

TEST_F(GemmTrace, CountersEqualTheModel) {
  using namespace lesson09::testing;
  kit::Trace (*const traces[])(int, int, int) = {blocked_scalar_trace,  strided_scalar_trace,
                                                 exercise_trace,        blocked_float4_trace,
                                                 strided_by_four_trace, exercise_float4_trace};
  const auto all = variants();
  for (const auto& [m, n, k] : {std::array{256, 256, 64}, std::array{300, 200, 77}}) {
    KIT_REQUIRE_VERIFIED_RULES(strided_by_four_trace(m, n, k));
    kit::DeviceBuffer<float> d_a(static_cast<std::size_t>(m) * k);
    kit::DeviceBuffer<float> d_b(static_cast<std::size_t>(k) * n);
    kit::DeviceBuffer<float> d_c(static_cast<std::size_t>(m) * n);
    d_a.fill_bytes(0);
    d_b.fill_bytes(0);
    const std::string shape =
        " " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    for (std::size_t i = 0; i < all.size(); ++i) {
      expect_counts(all[i].name + shape, traces[i](m, n, k),
                    [&] { all[i].run(d_a.get(), d_b.get(), d_c.get(), m, n, k, nullptr); });
    }
  }
}

class DemoCounters : public kit::testing::CounterTest {};

TEST_F(DemoCounters, EqualTheModel) {
  using namespace lesson09;
  for (const kit::Pattern& p :
       {b_scalar_read_demo<Blocked>("blocked"), b_scalar_read_32_wide_demo(),
        b_scalar_read_demo<Strided>("strided"), b_float4_read_demo<Blocked>("blocked"),
        b_float4_read_demo<StridedByFour>("strided by four"), a_column_read_demo(),
        a_transposed_read_demo(), a_transposing_store_demo()}) {
    KIT_REQUIRE_VERIFIED_RULES([&] {
      kit::Trace t;
      t.add(p.op, p.access);
      return t;
    }());
    expect_pattern(p);
  }
}

} // namespace
