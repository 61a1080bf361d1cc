// Every kernel of the lesson against the CPU on fresh random bits, at every shape (one
// element, one row, one column, ragged tiles, a large square): a transpose moves bits, so
// the result must be exact. The starter's kernels are correct (and slow): keep them so.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/testing.hpp"
#include "matrix_run.hpp"

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
