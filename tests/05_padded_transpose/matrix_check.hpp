// Matrices for the lesson's tests: the sizes every kernel must handle, fresh random bits,
// the CPU reference, and a comparison that names the first wrong element.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"

namespace lesson05::testing {

/// A matrix shape.
struct Shape {
  int rows; ///< Rows of the input.
  int cols; ///< Columns of the input.
  /// Elements.
  std::size_t size() const {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  }
  /// "rows x cols", for messages.
  std::string name() const { return std::to_string(rows) + " x " + std::to_string(cols); }
};

/// The shapes every kernel is checked on: one element, one row, one column, one ragged tile
/// each way, a tile multiple, ragged tiles on both edges (one of them a multiple of 4), and
/// a large square (not in the small mode).
inline std::vector<Shape> correctness_shapes() {
  std::vector<Shape> s = {{1, 1},   {1, 4097}, {4097, 1},   {31, 33},
                          {33, 31}, {64, 96},  {1000, 777}, {1000, 776}};
  if (!kit::small_mode()) {
    s.push_back({4096, 4096});
  }
  return s;
}

/// out[c][r] = in[r][c]: the reference every transpose is held to.
inline std::vector<std::uint32_t> cpu_transpose(const std::vector<std::uint32_t>& in, Shape s) {
  std::vector<std::uint32_t> out(in.size());
  for (int r = 0; r < s.rows; ++r) {
    for (int c = 0; c < s.cols; ++c) {
      out[matrix_index(c, r, s.rows)] = in[matrix_index(r, c, s.cols)];
    }
  }
  return out;
}

/// Bit-for-bit equality with the expected matrix (`out_cols` values per row); the message
/// names the first difference, its tile, and how many differ.
inline ::testing::AssertionResult same_bits(const std::vector<std::uint32_t>& got,
                                            const std::vector<std::uint32_t>& want, int out_cols) {
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      if (wrong++ == 0) {
        first = i;
      }
    }
  }
  if (wrong == 0) {
    return ::testing::AssertionSuccess();
  }
  const std::size_t r = first / static_cast<std::size_t>(out_cols);
  const std::size_t c = first % static_cast<std::size_t>(out_cols);
  char buf[64];
  std::snprintf(buf, sizeof buf, "0x%08x, expected 0x%08x", got[first], want[first]);
  return ::testing::AssertionFailure()
         << wrong << " of " << want.size() << " output elements differ; the first is (" << r << ", "
         << c << ") in output tile (" << r / kTileDim << ", " << c / kTileDim << "): " << buf
         << (got[first] == 0xffffffffu ? " (never written: still the poison)" : "");
}

/// The device array as the kernels' floats (a transpose moves bits, so random 32-bit
/// patterns, NaNs included, must come out unchanged).
inline const float* as_floats(const kit::DeviceBuffer<std::uint32_t>& b) {
  return reinterpret_cast<const float*>(b.get());
}
/// The device array as the kernels' floats, writable.
inline float* as_floats(kit::DeviceBuffer<std::uint32_t>& b) {
  return reinterpret_cast<float*>(b.get());
}

/// Runs `op` on fresh random bits of every shape (the correctness shapes unless given) and
/// holds the result to the CPU (a transpose, or a copy when `transposes` is false). The
/// output is poisoned first. With `offset` > 0 the matrices start that many floats into
/// their allocations (pointers that are not 8- or 16-byte aligned).
inline void expect_correct(const char* name, MatrixOp op, bool transposes, std::uint64_t seed,
                           const std::vector<Shape>& shapes = correctness_shapes(),
                           int offset = 0) {
  const auto off = static_cast<std::size_t>(offset);
  for (const Shape s : shapes) {
    std::vector<std::uint32_t> in = kit::testing::random_bits(s.size(), seed + s.size());
    std::vector<std::uint32_t> padded_in(off, 0u);
    padded_in.insert(padded_in.end(), in.begin(), in.end());
    kit::DeviceBuffer<std::uint32_t> d_in(padded_in), d_out(s.size() + off);
    d_out.fill_bytes(0xff);
    op(as_floats(d_in) + off, as_floats(d_out) + off, s.rows, s.cols, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::uint32_t> got = d_out.download();
    got.erase(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(off));
    if (transposes) {
      EXPECT_TRUE(same_bits(got, cpu_transpose(in, s), s.rows))
          << name << " on a " << s.name() << " matrix" << (off ? ", pointers offset" : "");
    } else {
      EXPECT_TRUE(same_bits(got, in, s.cols))
          << name << " on a " << s.name() << " matrix" << (off ? ", pointers offset" : "");
    }
  }
}

} // namespace lesson05::testing
