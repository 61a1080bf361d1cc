/// @file lessons/05_padded_transpose/internal.cuh
/// @brief Lesson 05's plumbing: the block shape and the launch every kernel of the lesson
/// shares (on the GPU with nvcc; on the CPU, recorded and checked, with the host compiler).
/// You do not need to read or edit this file.
#pragma once

#include <demo.hpp>

#include "kit/launch.hpp"
#include "kit/matrix.hpp"
#include "kit/shared_tile.hpp"

namespace lesson05::internal {

/// The block of every kernel of the lesson: kTileDim lanes by kBlockWarps warps.
inline dim3 tile_block() {
  return dim3(kTileDim, kBlockWarps);
}

/// Launches `kernel` with one block per tile of the `rows` x `cols` input (kit::tile_grid);
/// nothing for an empty matrix.
template <class Kernel>
void launch(Kernel kernel, const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  kit::launch(kernel, kit::tile_grid(rows, cols, kTileDim), tile_block(), stream, in, out, rows,
              cols);
}

} // namespace lesson05::internal
