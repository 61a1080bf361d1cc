/// @file matrix.hpp
/// @brief Row-major matrices cut into square tiles: the index of an element, how many tiles
/// cover an axis, and the grid of one block per tile. Shared by the kernels that move a
/// matrix tile by tile (the transposes of lessons 05 and 06, the transpose benchmark).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "kit/config.hpp"

namespace kit {

/// Index of element (r, c) in a row-major matrix whose rows hold `ld` elements.
KIT_HD constexpr std::size_t matrix_index(int r, int c, int ld) {
  return static_cast<std::size_t>(r) * static_cast<std::size_t>(ld) + static_cast<std::size_t>(c);
}

/// Tiles of `tile` elements needed to cover `n` elements of one axis (the last may be ragged).
KIT_HD constexpr int tiles_for(int n, int tile) {
  return (n + tile - 1) / tile;
}

/// One block per tile of a `rows` x `cols` matrix: x over the tile columns, y over the tile
/// rows.
inline dim3 tile_grid(int rows, int cols, int tile) {
  return dim3(static_cast<unsigned>(tiles_for(cols, tile)),
              static_cast<unsigned>(tiles_for(rows, tile)));
}

} // namespace kit
