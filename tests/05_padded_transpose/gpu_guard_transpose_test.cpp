// Every kernel of the lesson against the CPU on fresh random bits, at every shape (one
// element, one row, one column, ragged tiles, a large square): a transpose moves bits, so
// the result must be exact. The starter's kernels are correct (and slow): keep them so. The
// variants of faster.hpp take the same awkward shapes, their own tile multiples and
// unaligned pointers, without the large square.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>
#include <faster.hpp>

#include "kit/testing.hpp"
#include "matrix_check.hpp"

namespace {

using lesson05::testing::expect_correct;

TEST(Correctness, CopyMatchesTheCpu) {
  KIT_REQUIRE_GPU();
  expect_correct("copy_matrix", lesson05::copy_matrix, false, kit::testing::fresh_seed());
}

TEST(Correctness, NaiveTransposeMatchesTheCpu) {
  KIT_REQUIRE_GPU();
  expect_correct("transpose_naive", lesson05::transpose_naive, true, kit::testing::fresh_seed());
}

TEST(Correctness, TiledTransposeMatchesTheCpu) {
  KIT_REQUIRE_GPU();
  expect_correct("transpose_tiled", lesson05::transpose_tiled, true, kit::testing::fresh_seed());
}

TEST(Correctness, PaddedTransposeMatchesTheCpu) {
  KIT_REQUIRE_GPU();
  expect_correct("transpose_padded", lesson05::transpose_padded, true, kit::testing::fresh_seed());
}

// The variants' shapes: the awkward ones, full 64 x 64 tiles with sides that are multiples of
// 4, ragged tiles with even sides; no large square (the variants differ from the lesson's
// kernels in tile shape, not in size, and the benchmark checks them at 8192 x 8192).
std::vector<lesson05::testing::Shape> faster_shapes() {
  std::vector<lesson05::testing::Shape> s = lesson05::testing::correctness_shapes();
  s.erase(std::remove_if(s.begin(), s.end(), [](auto x) { return x.rows > 1024 && x.cols > 1024; }),
          s.end());
  s.push_back({384, 576});
  s.push_back({130, 198});
  return s;
}

TEST(Correctness, FasterVariantsMatchTheCpu) {
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    expect_correct(v.name, v.op, v.transposes, seed, faster_shapes());
  }
}

TEST(Correctness, FasterVariantsTakeUnalignedPointers) {
  // One float into the allocation: the float2 and float4 paths must fall back to floats.
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    expect_correct(v.name, v.op, v.transposes, seed, {{64, 64}, {130, 198}, {33, 31}}, 1);
  }
}

// The persistent variant on a grid of Blocks blocks.
template <int Blocks>
void persistent_on(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  lesson05::faster::transpose_padded_64x8_bands_persistent_grid(Blocks, in, out, rows, cols,
                                                                stream);
}

TEST(Correctness, PersistentBlocksMoveManyTiles) {
  // A few blocks, so that each takes many tiles in turn, full and ragged, and loads the next
  // one while it writes the current one.
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  const std::vector<lesson05::testing::Shape> shapes = {
      {1, 1}, {1000, 777}, {1000, 776}, {384, 576}, {130, 2050}};
  expect_correct("persistent, 1 block", persistent_on<1>, true, seed, shapes);
  expect_correct("persistent, 3 blocks", persistent_on<3>, true, seed, shapes);
  expect_correct("persistent, 7 blocks", persistent_on<7>, true, seed, shapes);
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  for (lesson05::MatrixOp op : {lesson05::copy_matrix, lesson05::transpose_naive,
                                lesson05::transpose_tiled, lesson05::transpose_padded}) {
    op(nullptr, nullptr, 0, 0, nullptr);
    op(nullptr, nullptr, 0, 7, nullptr);
    op(nullptr, nullptr, 7, 0, nullptr);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
