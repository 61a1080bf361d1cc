// score_rows and its padded twin as the family's traces, built from the layouts and pair
// stores the kernel is instantiated with (host code: the CPU tests use them too).
#pragma once

#include <demo.hpp>
#include <exercise.hpp>

#include "score_rows/trace.hpp"
#include "twin.hpp"

namespace lesson08::testing {

/// The student's TileLayout is the layout of the lesson's whole tile, of floats (a compile
/// error names the rule otherwise).
static_assert(families::score_rows::holds_the_tile<ScoreRows, TileLayout>());

/// The student's pair store (exercise.hpp), as the kernel takes it.
struct ExercisePairs {
  static constexpr PairStore at(int r, int p) { return pair_store(r, p); }
};

/// The traces of the student's score_rows and of the twin, and the model's ratios.
using Traces =
    families::score_rows::Traces<ScoreRows, TileLayout, TwinTileLayout, ExercisePairs, TwinPairs>;

} // namespace lesson08::testing
