// Parts 2 and 3 on the CPU: the tile kernel emulated with your functions (phase 1 through
// store_slot, phase 2 through load_slot, tile_extent at the edges) must transpose every
// shape, exactly, for both tiles.
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

#include "kit/device.hpp"
#include "kit/testing.hpp"
#include "matrix_check.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::testing::Shape;

template <int Pitch>
void expect_emulation_transposes(const char* which) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  for (const Shape s : lesson05::testing::correctness_shapes()) {
    const std::vector<std::uint32_t> in = kit::testing::random_bits(s.size(), seed + s.size());
    std::vector<std::uint32_t> out(s.size(), 0xffffffffu);
    const auto error = lesson05::testing::emulate_tile_transpose<Pitch>(in, out, s.rows, s.cols);
    ASSERT_FALSE(error.has_value()) << which << ", " << s.name() << " matrix: " << *error;
    EXPECT_TRUE(lesson05::testing::same_bits(out, lesson05::testing::cpu_transpose(in, s), s.rows))
        << which << " emulated on a " << s.name() << " matrix";
  }
}

TEST(Emulation, TiledKernelTransposes) {
  expect_emulation_transposes<lesson05::kTiledPitch>("the plain tile");
}

TEST(Emulation, PaddedKernelTransposes) {
  expect_emulation_transposes<lesson05::kPaddedPitch>("the padded tile");
}

} // namespace
