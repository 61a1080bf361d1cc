// The variants of transpose-bench on the GPU: each against the CPU on fresh random bits at
// the awkward shapes, their own tile multiples and unaligned pointers (the kit's matrix
// helpers); the persistent one with few blocks, each moving many tiles; and their hardware
// counters equal their traces, each access at its width's ideal.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "kit/bank_model.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/testing_matrix_run.hpp"
#include "variant_trace.hpp"
#include "variants.hpp"

namespace {

using kit::testing::expect_correct;
using kit::testing::Shape;
using transpose_variants::kVariants;
using transpose_variants::Variant;
using transpose_variants::testing::kVariantTraces;
using transpose_variants::testing::variant_trace;

TEST(Variants, EveryVariantHasATrace) {
  // The CPU tests check the variants through variant_trace.hpp's list: it must be this one.
  ASSERT_EQ(std::size(kVariants), std::size(kVariantTraces));
  for (std::size_t i = 0; i < std::size(kVariants); ++i) {
    EXPECT_EQ(std::string(kVariants[i].name), kVariantTraces[i].name)
        << "variant " << i << ": add its trace to variant_trace.hpp, built from the layouts its "
        << "kernel uses";
    EXPECT_EQ(kVariants[i].transposes, kVariantTraces[i].transposes) << kVariants[i].name;
  }
}

class VariantCounters : public kit::testing::CounterTest {};

TEST_F(VariantCounters, EqualTheirTraces) {
  // Full tiles of every variant (1024 is a multiple of 64): each takes its fast path.
  constexpr int kSide = 1024;
  kit::Trace all; // 8-byte accesses among them: their rules were measured on sm_90
  for (const Variant& v : kVariants) {
    if (auto t = variant_trace(v.name, kSide, kSide)) {
      all.append(*t);
    }
  }
  KIT_REQUIRE_VERIFIED_RULES(all);
  kit::DeviceBuffer<float> in(kSide * kSide), out(kSide * kSide);
  in.fill_bytes(0);
  for (const Variant& v : kVariants) {
    const std::optional<kit::Trace> trace = variant_trace(v.name, kSide, kSide);
    ASSERT_TRUE(trace.has_value()) << v.name << " has no trace in variant_trace.hpp";
    const std::string what = std::string(v.name) + " 1024 x 1024";
    expect_counts(what, *trace, [&] { v.op(in.get(), out.get(), kSide, kSide, nullptr); });
    EXPECT_EQ(trace->expected(), trace->ideal()) << what << ": the trace itself is not ideal";
  }
}

// The variants' shapes: the awkward ones, full 64 x 64 tiles with sides that are multiples of
// 4, ragged tiles with even sides; no large square (the variants differ from the lesson's
// kernels in tile shape, not in size, and the benchmark checks them at 8192 x 8192).
std::vector<Shape> variant_shapes() {
  std::vector<Shape> s = kit::testing::awkward_shapes();
  s.push_back({384, 576});
  s.push_back({130, 198});
  return s;
}

TEST(VariantCorrectness, MatchTheCpu) {
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const Variant& v : kVariants) {
    expect_correct(v.name, v.op, v.transposes, seed, variant_shapes());
  }
}

TEST(VariantCorrectness, TakeUnalignedPointers) {
  // One float into the allocation: the float2 and float4 paths must fall back to floats.
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const Variant& v : kVariants) {
    expect_correct(v.name, v.op, v.transposes, seed, {{64, 64}, {130, 198}, {33, 31}}, 1);
  }
}

// The persistent variant on a grid of Blocks blocks.
template <int Blocks>
void persistent_on(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  transpose_variants::transpose_padded_64x8_bands_persistent_grid(Blocks, in, out, rows, cols,
                                                                  stream);
}

TEST(VariantCorrectness, PersistentBlocksMoveManyTiles) {
  // A few blocks, so that each takes many tiles in turn, full and ragged, and loads the next
  // one while it writes the current one.
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  const std::vector<Shape> shapes = {{1, 1}, {1000, 777}, {1000, 776}, {384, 576}, {130, 2050}};
  expect_correct("persistent, 1 block", persistent_on<1>, true, seed, shapes);
  expect_correct("persistent, 3 blocks", persistent_on<3>, true, seed, shapes);
  expect_correct("persistent, 7 blocks", persistent_on<7>, true, seed, shapes);
}

} // namespace
