// Lesson 05's kernels run on the GPU against the CPU on fresh random bits (GPU tests only).
#pragma once

#include <cstdint>
#include <vector>

#include <demo.hpp>

#include "kit/testing_matrix_run.hpp"
#include "matrix_check.hpp"

namespace lesson05::testing {

using kit::testing::correctness_shapes;

/// kit::testing::expect_correct with the lesson's tile named in messages.
inline void expect_correct(const char* name, MatrixOp op, bool transposes, std::uint64_t seed,
                           const std::vector<Shape>& shapes = correctness_shapes(),
                           int offset = 0) {
  kit::testing::expect_correct(name, op, transposes, seed, shapes, offset, kTileDim);
}

} // namespace lesson05::testing
