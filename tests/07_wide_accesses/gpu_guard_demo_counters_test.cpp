// The demos on the GPU: the counters read exactly what the bank model says, requests
// included: the same 512 bytes in 4, 2 or 1 requests; the phases of float2 and float4
// strides; loads and stores of shared addresses; wide column reads at the
// pitches of the lesson; the 32 x 32 tile's float2 row stores and float column reads. The
// 8- and 16-byte rules were read on sm_90 only: elsewhere those demos skip, with the reason,
// and the 4-byte column reads still run.
#include <gtest/gtest.h>

#include <vector>

#include <demo.hpp>

#include "kit/testing.hpp"

namespace {

using kit::SharedOp;

class DemoCounters : public kit::testing::CounterTest {
protected:
  void expect_patterns(const std::vector<kit::Pattern>& patterns) {
    kit::Trace all;
    for (const kit::Pattern& p : patterns) {
      all.add(p.op, p.access, 1, p.name);
    }
    KIT_REQUIRE_VERIFIED_RULES(all);
    for (const kit::Pattern& p : patterns) {
      expect_pattern(p);
    }
  }
};

TEST_F(DemoCounters, SameBytesFewerRequests) {
  expect_patterns({lesson07::float_stride_one_demo(), lesson07::float2_stride_one_demo(),
                   lesson07::float4_stride_one_demo()});
}

TEST_F(DemoCounters, PhasesAndMerges) {
  expect_patterns({lesson07::float2_stride_two_demo(), lesson07::float4_stride_two_demo(),
                   lesson07::float4_stride_eight_demo(), lesson07::float2_broadcast_demo(),
                   lesson07::float2_broadcast_demo(SharedOp::store),
                   lesson07::float4_broadcast_demo(),
                   lesson07::float4_broadcast_demo(SharedOp::store), lesson07::float4_pairs_demo(),
                   lesson07::float4_pairs_demo(SharedOp::store)});
}

TEST_F(DemoCounters, WideColumnsAtEachPitch) {
  expect_patterns({lesson07::wide_column_demo<2, 32>(), lesson07::wide_column_demo<2, 34>(),
                   lesson07::wide_column_demo<2, 36>(), lesson07::wide_column_demo<4, 32>(),
                   lesson07::wide_column_demo<4, 36>(), lesson07::wide_column_demo<4, 40>(),
                   lesson07::wide_column_demo<4, 36>(8)});
}

TEST_F(DemoCounters, LimitTileRowStores) {
  expect_patterns({lesson07::limit_row_store_demo<32>(), lesson07::limit_row_store_demo<34>()});
}

TEST_F(DemoCounters, LimitTileColumnReads) {
  // 4-byte reads: verified on every architecture.
  expect_patterns({lesson07::limit_column_read_demo<32>(), lesson07::limit_column_read_demo<33>(),
                   lesson07::limit_column_read_demo<34>(),
                   lesson07::limit_column_read_demo<34>(1)});
}

} // namespace
