// Part 3 on the GPU: the hardware counters of your kernels equal the traces built from your
// layout and coordinates, ragged edges included (lanes past the edge are inactive; warps
// skip tile rows that do not exist). Then the lesson's point in the counters: the plain
// tile's full column read costs what the model says for lanes 32 floats apart, the padded
// tile's must cost the ideal, and the row stores of both tiles are checked too. Where the grader
// finds the counters refused, the counts come from the CPU run of the same launches (your
// kernel, run on the CPU), and the report lines say so.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "transpose_trace.hpp"

namespace {

class TransposeCounters : public kit::testing::CounterTest {};

TEST_F(TransposeCounters, EqualTheTracesOfYourFunctions) {
  for (const auto& [rows, cols] : lesson05::testing::counter_shapes()) {
    const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    kit::DeviceBuffer<float> in(n), out(n);
    in.fill_bytes(0);
    const std::string size = " " + std::to_string(rows) + " x " + std::to_string(cols);
    expect_counts("transpose_tiled" + size, lesson05::testing::tiled_trace(rows, cols),
                  {"transpose_tiled", rows, cols},
                  [&] { lesson05::transpose_tiled(in.get(), out.get(), rows, cols, nullptr); });
    expect_counts("transpose_padded" + size, lesson05::testing::padded_trace(rows, cols),
                  {"transpose_padded", rows, cols},
                  [&] { lesson05::transpose_padded(in.get(), out.get(), rows, cols, nullptr); });
  }
}

TEST_F(TransposeCounters, ColumnReadCostsWhatTheModelSays) {
  constexpr int kSide = 256; // full tiles only
  kit::DeviceBuffer<float> in(kSide * kSide), out(kSide * kSide);
  in.fill_bytes(0);
  const std::uint64_t column = static_cast<std::uint64_t>(
      kit::wavefronts(kit::strided_access(sizeof(float), lesson05::TiledLayout::kPitch)));
  const std::uint64_t ideal = static_cast<std::uint64_t>(kit::ideal_wavefronts(sizeof(float)));

  const kit::SharedCounters tiled = measure({"transpose_tiled", kSide, kSide}, [&] {
    lesson05::transpose_tiled(in.get(), out.get(), kSide, kSide, nullptr);
  });
  const kit::SharedCounters padded = measure({"transpose_padded", kSide, kSide}, [&] {
    lesson05::transpose_padded(in.get(), out.get(), kSide, kSide, nullptr);
  });
  kit::testing::report("transpose_tiled 256 x 256", tiled,
                       lesson05::testing::tiled_trace(kSide, kSide).expected());
  kit::testing::report("transpose_padded 256 x 256", padded,
                       lesson05::testing::padded_trace(kSide, kSide).expected());

  for (const auto* c : {&tiled, &padded}) {
    ASSERT_GT(c->sass.load_requests, 0u)
        << "no shared loads: the kernel does not stage its tile through shared memory yet";
    ASSERT_GT(c->sass.store_requests, 0u) << "no shared stores";
  }
  EXPECT_EQ(tiled.sass.load_wavefronts, column * tiled.sass.load_requests)
      << "every column read of the plain 32 x 32 tile should cost " << column << " wavefronts";
  EXPECT_EQ(padded.sass.load_wavefronts, ideal * padded.sass.load_requests)
      << "every column read of the padded tile should cost " << ideal << " wavefront";
  EXPECT_EQ(tiled.sass.store_wavefronts, ideal * tiled.sass.store_requests)
      << "row stores of the plain tile";
  EXPECT_EQ(padded.sass.store_wavefronts, ideal * padded.sass.store_requests)
      << "row stores of the padded tile";
}

} // namespace
