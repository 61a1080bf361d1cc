/// @file at_ideal.hpp
/// @brief One failure for one cause: a test of a kernel's accesses names the first instruction
/// over its ideal, by its trace label and the lanes that collide, and how many more are over
/// theirs, and stops there.
///
///     ASSERT_TRUE(kit::at_ideal(trace)) << kit::print_layout(TileLayout{}, 4);
///
/// fails once, with "the tile column load (4 B load) costs more wavefronts per request than its
/// ideal: bank 0 is asked for different words in one phase: word 0 (lane 0), word 32 (lane 1),
/// ... (and 31 more instructions over their ideal)", where a loop of EXPECTs over every
/// instruction would fail once per instruction for the same wrong layout. Not what it costs:
/// with a starter's layout that is often a prediction's answer. Host code (GoogleTest, no
/// CUDA): the lessons' CPU tests use it.
#pragma once

#include <gtest/gtest.h>

#include <optional>

#include "kit/trace.hpp"

namespace kit {

/// Success when every instruction of `trace` costs its ideal; otherwise a failure naming the
/// first one that does not (kit::first_over_ideal).
inline ::testing::AssertionResult at_ideal(const Trace& trace) {
  if (const std::optional<OverIdeal> over = first_over_ideal(trace)) {
    return ::testing::AssertionFailure() << over->describe();
  }
  return ::testing::AssertionSuccess();
}

} // namespace kit
