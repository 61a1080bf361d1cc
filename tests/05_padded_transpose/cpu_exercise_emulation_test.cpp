// Parts 2 and 3 on the CPU: the tile kernel emulated with your functions (phase 1 through
// store_coord, phase 2 through load_coord, each through the tile's layout, tile_extent at
// the edges) must transpose every shape, exactly, for both tiles. Every input element is
// different, so any element that lands in the wrong place shows, with the thread and the
// load_coord that put it there. One message per kind of failure, with the shapes that repeat
// it, at the function of exercise.hpp it points to.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <exercise.hpp>

#include "kit/testing_exercise.hpp"
#include "kit/testing_matrix.hpp"
#include "matrix_check.hpp"
#include "transpose_trace.hpp"

namespace {

using lesson05::testing::EmulatedWrite;
using lesson05::testing::Shape;

/// The awkward shapes and the large one, those made of full tiles first: their failures name a
/// wrong element of an ordinary tile, where an edge's may name one of a single row.
std::vector<Shape> emulation_shapes() {
  std::vector<Shape> shapes = lesson05::testing::awkward_shapes();
  shapes.push_back(lesson05::testing::kLargeShape);
  std::stable_partition(shapes.begin(), shapes.end(), [](Shape s) {
    return s.rows % lesson05::kTileDim == 0 && s.cols % lesson05::kTileDim == 0;
  });
  return shapes;
}

/// The function of exercise.hpp an emulation's error points to (its message names it).
std::optional<kit::testing::SourcePlace> place_of_error(const std::string& error) {
  if (error.find("tile_extent") != std::string::npos) {
    return KIT_EXERCISE_PLACE("tile_extent");
  }
  if (error.find("phase 2") != std::string::npos) {
    return KIT_EXERCISE_PLACE("load_coord");
  }
  return std::nullopt;
}

/// Where a wrong output element written by `w` points: load_coord when that thread's
/// load_coord is not the element phase 1 stored for it, else the tile's layout (two elements
/// in one slot), when the layout is the student's.
template <class Tile>
std::optional<kit::testing::SourcePlace> place_of_write(const EmulatedWrite& w) {
  if (w.x < 0) {
    return KIT_EXERCISE_PLACE("tile_extent"); // an element no thread wrote
  }
  if (!lesson05::testing::same_element(w.from, lesson05::store_coord(w.y, w.x))) {
    return KIT_EXERCISE_PLACE("load_coord");
  }
  if constexpr (std::is_same_v<Tile, lesson05::PaddedLayout>) {
    return KIT_EXERCISE_PLACE("PaddedLayout");
  }
  return std::nullopt;
}

template <class Tile>
void expect_emulation_transposes() {
  kit::testing::FailuresByKind failures;
  for (const Shape s : emulation_shapes()) {
    std::vector<std::uint32_t> in(s.size());
    std::iota(in.begin(), in.end(), 1u);
    std::vector<std::uint32_t> out(s.size(), 0xffffffffu);
    std::vector<EmulatedWrite> writes;
    const auto error =
        lesson05::testing::emulate_tile_transpose<Tile>(in, out, s.rows, s.cols, &writes);
    if (error) {
      failures.add("error", s.name(), *error, place_of_error(*error));
      continue;
    }
    std::optional<kit::testing::SourcePlace> place;
    const ::testing::AssertionResult same = kit::testing::same_transpose<std::uint32_t>(
        out, in, s, lesson05::kTileDim, [&](std::size_t i, std::uint32_t) {
          place = place_of_write<Tile>(writes[i]);
          const std::string how = lesson05::testing::describe(writes[i]);
          return how.empty() ? how : "In the emulation of your functions, " + how;
        });
    failures.add("output", s.name(), same, place);
  }
  failures.report();
}

TEST(Emulation, TiledKernelTransposes) {
  expect_emulation_transposes<lesson05::TiledLayout>();
}

TEST(Emulation, PaddedKernelTransposes) {
  expect_emulation_transposes<lesson05::PaddedLayout>();
}

} // namespace
