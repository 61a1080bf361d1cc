// Half-precision matrices for the lesson's GPU tests: the shapes, fresh random bits, the CPU
// reference and a comparison that names the first wrong element; the counters of a transpose
// held against its trace.
#pragma once

#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <demo.hpp>

#include "kit/buffer.hpp"
#include "kit/device.hpp"
#include "kit/testing.hpp"
#include "kit/testing_matrix.hpp"
#include "kit/trace.hpp"

namespace lesson06::testing {

using kit::testing::Shape;

/// One element, one row, one column, odd ragged tiles (the scalar path), full tiles that
/// move in pairs, even ragged tiles (pairs inside, scalar at the edges), and a large square
/// (not in the small mode).
inline std::vector<Shape> correctness_shapes() {
  std::vector<Shape> s = {{1, 1},   {1, 4097}, {4097, 1},   {31, 33},   {33, 31},
                          {64, 96}, {62, 34},  {1000, 778}, {1000, 777}};
  if (!kit::small_mode()) {
    s.push_back({4096, 4096});
  }
  return s;
}

/// `n` random 16-bit patterns (every half, NaNs and infinities included).
inline std::vector<std::uint16_t> random_halves(std::size_t n, std::uint64_t seed) {
  const std::vector<std::uint32_t> bits = kit::testing::random_bits((n + 1) / 2, seed);
  std::vector<std::uint16_t> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = static_cast<std::uint16_t>(bits[i / 2] >> (16 * (i % 2)));
  }
  return v;
}

/// Bit-for-bit equality with the transpose of `in`, naming where a wrong value came from.
inline ::testing::AssertionResult same_transpose(const std::vector<std::uint16_t>& got,
                                                 const std::vector<std::uint16_t>& in, Shape s) {
  return kit::testing::same_transpose(got, in, s, kTileDim);
}

/// The device array as the kernels' halves.
inline const __half* as_halves(const kit::DeviceBuffer<std::uint16_t>& b) {
  return reinterpret_cast<const __half*>(b.get());
}
/// The device array as the kernels' halves, writable.
inline __half* as_halves(kit::DeviceBuffer<std::uint16_t>& b) {
  return reinterpret_cast<__half*>(b.get());
}

/// Runs `op` on fresh random halves of every shape and holds the result to the CPU
/// transpose, bit for bit. The output is poisoned first.
inline void expect_transposes(const char* name, HalfMatrixOp op, std::uint64_t seed) {
  for (const Shape s : correctness_shapes()) {
    const std::vector<std::uint16_t> in = random_halves(s.size(), seed + s.size());
    kit::DeviceBuffer<std::uint16_t> d_in(in), d_out(s.size());
    d_out.fill_bytes(0xff);
    op(as_halves(d_in), as_halves(d_out), s.rows, s.cols, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(same_transpose(d_out.download(), in, s))
        << name << " on a " << s.name() << " matrix";
  }
}

/// The side of the square the counter tests hold to the ideal: full tiles only.
inline constexpr int kFullTilesSide = 256;

/// The shapes the counter tests hold transpose_half2 to its trace on: full tiles, even ragged
/// tiles, a large ragged matrix, odd ragged tiles.
inline std::vector<Shape> half2_counter_shapes() {
  return {{kFullTilesSide, kFullTilesSide}, {62, 34}, {1000, 778}, {31, 33}};
}

/// Every launch of the counter tests: where the grader finds the counters refused, their counts
/// come from the CPU run of these launches, which the lesson's CpuRecording test holds to the
/// counters launch for launch.
inline std::vector<kit::RecordedLaunch> counter_launches() {
  std::vector<kit::RecordedLaunch> launches = {{"transpose_half", kFullTilesSide, kFullTilesSide}};
  for (const Shape s : half2_counter_shapes()) {
    launches.push_back({"transpose_half2", s.rows, s.cols});
  }
  return launches;
}

/// A counter test of the lesson's transposes.
class TransposeCounterTest : public kit::testing::CounterTest {
protected:
  /// Runs `op` (named `name`) on a rows x cols matrix of zeros, for each shape, and expects
  /// the counts to equal `trace_of(rows, cols)`.
  template <class TraceFn>
  void expect_counts_of(const char* name, HalfMatrixOp op, const std::vector<Shape>& shapes,
                        TraceFn trace_of) {
    for (const Shape s : shapes) {
      kit::DeviceBuffer<__half> in(s.size()), out(s.size());
      in.fill_bytes(0);
      expect_counts(std::string(name) + " " + s.name(), trace_of(s.rows, s.cols),
                    {name, s.rows, s.cols},
                    [&] { op(in.get(), out.get(), s.rows, s.cols, nullptr); });
    }
  }
};

} // namespace lesson06::testing
