// Matrices for the lesson's tests (host code: the CPU tests use it too): the awkward shapes
// every kernel must handle and a comparison that names the first wrong element and its tile.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <demo.hpp>

#include "kit/testing_matrix.hpp"

namespace lesson05::testing {

using kit::testing::cpu_transpose;
using kit::testing::Shape;

/// One element, one row, one column, one ragged tile each way, a tile multiple, ragged tiles
/// on both edges (one of them a multiple of 4).
inline std::vector<Shape> awkward_shapes() {
  return {{1, 1}, {1, 4097}, {4097, 1}, {31, 33}, {33, 31}, {64, 96}, {1000, 777}, {1000, 776}};
}

/// A large square: the awkward shapes' companion outside the small (sanitizer) mode.
inline constexpr Shape kLargeShape{4096, 4096};

/// Bit-for-bit equality with the expected matrix (`out_cols` values per row).
inline ::testing::AssertionResult same_bits(const std::vector<std::uint32_t>& got,
                                            const std::vector<std::uint32_t>& want, int out_cols) {
  return kit::testing::same_bits(got, want, out_cols, kTileDim);
}

} // namespace lesson05::testing
