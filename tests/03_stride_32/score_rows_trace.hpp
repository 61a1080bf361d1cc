// score_rows and its twin as the family's traces (host code: the CPU tests use them too).
#pragma once

#include <demo.hpp>
#include <exercise.hpp>

#include "score_rows/trace.hpp"
#include "twin.hpp"

namespace lesson03::testing {

/// The student's TileLayout is the layout of the lesson's whole tile, of floats (a compile
/// error names the rule otherwise).
static_assert(families::score_rows::holds_the_tile<ScoreRows, TileLayout>());

/// The traces of the student's score_rows and of the twin, and the model's ratio of the two.
using Traces = families::score_rows::Traces<ScoreRows, TileLayout, TwinTileLayout>;

} // namespace lesson03::testing
