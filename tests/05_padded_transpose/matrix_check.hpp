// Matrices for the lesson's tests (host code: the CPU tests use it too): the awkward shapes
// every kernel must handle and comparisons that name the first wrong element, its tile and,
// for a transpose, where its value came from.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <demo.hpp>

#include "kit/testing_matrix.hpp"

namespace lesson05::testing {

using kit::testing::awkward_shapes;
using kit::testing::cpu_transpose;
using kit::testing::kLargeShape;
using kit::testing::Shape;

/// The shapes the kernels run on the CPU (cpu_*_kernel_test.cpp): full tiles only, ragged tiles
/// on both edges, one ragged tile each way. Full tiles first: a test reports the first shape
/// that shows a mistake, and there every tile element is written, so swapped coordinates show
/// as an output element that holds the wrong input (with the line that stored it) rather than
/// as an edge tile's read of an element no thread wrote.
inline constexpr Shape kKernelShapes[] = {{64, 96}, {70, 45}, {33, 31}};

/// Bit-for-bit equality with the expected matrix (`out_cols` values per row).
inline ::testing::AssertionResult same_bits(const std::vector<std::uint32_t>& got,
                                            const std::vector<std::uint32_t>& want, int out_cols) {
  return kit::testing::same_bits(got, want, out_cols, kTileDim);
}

/// Bit-for-bit equality with the transpose of `in`, naming where a wrong value came from.
inline ::testing::AssertionResult same_transpose(const std::vector<std::uint32_t>& got,
                                                 const std::vector<std::uint32_t>& in, Shape s) {
  return kit::testing::same_transpose(got, in, s, kTileDim);
}

} // namespace lesson05::testing
