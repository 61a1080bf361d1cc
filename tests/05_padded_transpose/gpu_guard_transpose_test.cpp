// Every kernel of the lesson against the CPU on fresh random bits, at every shape (one
// element, one row, one column, ragged tiles, a large square): a transpose moves bits, so
// the result must be exact. The starter's kernels are correct (and slow): keep them so.
#include <gtest/gtest.h>

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

TEST(Correctness, FasterVariantsMatchTheCpu) {
  KIT_REQUIRE_GPU();
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const lesson05::faster::Variant& v : lesson05::faster::kVariants) {
    expect_correct(v.name, v.op, v.transposes, seed);
  }
}

} // namespace
