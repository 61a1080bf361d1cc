/// @file testing_matrix_run.hpp
/// @brief A kernel that moves a matrix (a transpose, a copy) run on the GPU against the CPU on
/// fresh random bits of the awkward shapes (kit/testing_matrix.hpp). GPU tests only.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"
#include "kit/testing_matrix.hpp"

namespace kit::testing {

/// A kernel that moves a matrix: reads the `rows` x `cols` row-major floats at `in`, writes
/// `out` (device pointers) on `stream`.
using MatrixKernel = void (*)(const float* in, float* out, int rows, int cols, cudaStream_t stream);

/// The shapes every kernel is checked on: the awkward shapes and, outside the small
/// (sanitizer) mode, a large square.
inline std::vector<Shape> correctness_shapes() {
  std::vector<Shape> s = awkward_shapes();
  if (!kit::small_mode()) {
    s.push_back(kLargeShape);
  }
  return s;
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
/// holds the result to the CPU (a transpose, or a copy when `transposes` is false), naming a
/// wrong element's `tile` x `tile` tile. The output is poisoned first. With `offset` > 0 the
/// matrices start that many floats into their allocations (pointers that are not 8- or
/// 16-byte aligned).
inline void expect_correct(const char* name, MatrixKernel op, bool transposes, std::uint64_t seed,
                           const std::vector<Shape>& shapes = correctness_shapes(), int offset = 0,
                           int tile = 32) {
  const auto off = static_cast<std::size_t>(offset);
  for (const Shape s : shapes) {
    std::vector<std::uint32_t> in = random_bits(s.size(), seed + s.size());
    std::vector<std::uint32_t> padded_in(off, 0u);
    padded_in.insert(padded_in.end(), in.begin(), in.end());
    kit::DeviceBuffer<std::uint32_t> d_in(padded_in), d_out(s.size() + off);
    d_out.fill_bytes(0xff);
    op(as_floats(d_in) + off, as_floats(d_out) + off, s.rows, s.cols, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::uint32_t> got = d_out.download();
    got.erase(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(off));
    const char* pointers = off ? ", pointers offset" : "";
    if (transposes) {
      EXPECT_TRUE(same_transpose(got, in, s, tile))
          << name << " on a " << s.name() << " matrix" << pointers;
    } else {
      EXPECT_TRUE(same_bits(got, in, s.cols, tile))
          << name << " on a " << s.name() << " matrix" << pointers;
    }
  }
}

} // namespace kit::testing
