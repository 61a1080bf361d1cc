/// @file lessons/01_no_conflict/demo.hpp
/// @brief Lesson 01 demos: three conflict-free ways for a warp to read 32 floats.
///
/// Each demo is an index function (which float lane `l` reads) turned into a kit::Pattern
/// that the kit's microbenchmark kernel issues from every warp of a full GPU. You do not
/// edit this file; you predict what it costs (exercise.hpp) and the tests measure it.
#pragma once

#include "kit/config.hpp"
#include "kit/pattern.hpp"

namespace lesson01 {

/// Stride 1: lane l reads float l. Words 0..31, banks 0..31: one wavefront.
KIT_HD constexpr unsigned stride_one_index(unsigned lane) {
  return lane;
}

/// Stride 33: lane l reads float 33 l. Word 33 l sits in bank (33 l) % 32 = l % 32:
/// the lanes are 132 bytes apart, yet every lane still has a bank of its own.
KIT_HD constexpr unsigned stride_33_index(unsigned lane) {
  return 33 * lane;
}

/// A permutation: lane l reads float (7 l + 3) % 32. Any order of the 32 words of one row
/// is conflict-free: what matters is that no bank is asked for two different words.
KIT_HD constexpr unsigned permuted_index(unsigned lane) {
  return (7 * lane + 3) % kit::kNumBanks;
}

/// The float-index function of each demo, as a pattern of 4-byte loads.
kit::Pattern stride_one_demo();
/// Stride 33 as a pattern of 4-byte loads.
kit::Pattern stride_33_demo();
/// The permutation as a pattern of 4-byte loads.
kit::Pattern permuted_demo();

} // namespace lesson01
