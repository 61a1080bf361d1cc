// The stride-sweep lab's two shapes as patterns, from the index expressions the README and
// bank-conflicts use: plain `l * offset`, jagged `l * offset + 32 * l` (host code).
#pragma once

#include <string>

#include "kit/config.hpp"
#include "kit/pattern.hpp"

namespace lesson10::testing {

/// Lane l reads float l * offset.
inline kit::Pattern plain_shape(int offset) {
  return kit::offset_pattern("float l * " + std::to_string(offset), 4,
                             [offset](unsigned lane) { return lane * offset; });
}

/// Lane l reads float l * offset + 32 l: every lane in a row of its own.
inline kit::Pattern jagged_shape(int offset) {
  return kit::offset_pattern(
      "float l * " + std::to_string(offset) + " + 32 l", 4,
      [offset](unsigned lane) { return lane * offset + kit::kNumBanks * lane; });
}

} // namespace lesson10::testing
