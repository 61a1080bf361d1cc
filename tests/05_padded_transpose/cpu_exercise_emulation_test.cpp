// Parts 2 and 3 on the CPU: the tile kernel emulated with your functions (phase 1 through
// store_coord, phase 2 through load_coord, each through the tile's layout, tile_extent at
// the edges) must transpose every shape, exactly, for both tiles. Every input element is
// different, so any element that lands in the wrong place shows.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include <exercise.hpp>

#include "matrix_check.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::testing::Shape;

template <class Tile>
void expect_emulation_transposes(const char* which) {
  std::vector<Shape> shapes = lesson05::testing::awkward_shapes();
  shapes.push_back(lesson05::testing::kLargeShape);
  for (const Shape s : shapes) {
    std::vector<std::uint32_t> in(s.size());
    std::iota(in.begin(), in.end(), 1u);
    std::vector<std::uint32_t> out(s.size(), 0xffffffffu);
    const auto error = lesson05::testing::emulate_tile_transpose<Tile>(in, out, s.rows, s.cols);
    ASSERT_FALSE(error.has_value()) << which << ", " << s.name() << " matrix: " << *error;
    EXPECT_TRUE(lesson05::testing::same_transpose(out, in, s))
        << which << " emulated on a " << s.name() << " matrix";
  }
}

TEST(Emulation, TiledKernelTransposes) {
  expect_emulation_transposes<lesson05::TiledLayout>("the plain tile");
}

TEST(Emulation, PaddedKernelTransposes) {
  expect_emulation_transposes<lesson05::PaddedLayout>("the padded tile");
}

} // namespace
