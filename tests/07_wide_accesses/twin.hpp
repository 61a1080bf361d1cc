// The conflict-free twin score_rows4 is timed against: the same kernel (the lesson's kind of
// the score_rows family) with rows kTileDim + kVec floats apart. The tests own it: it is the
// answer to the exercise.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson07::testing {

/// The twin's tile layout: rows kTileDim + 4 floats apart.
using TwinTileLayout = kit::Pitched<float, kTileRows, kTileDim, kTileDim + kVec>;

/// score_rows4 with TwinTileLayout (twin.cu).
void score_rows4_twin(const float* rows, int n_rows, int n_cols, const float* queries,
                      float* scores, cudaStream_t stream = nullptr);
/// The __global__ function behind score_rows4_twin().
const void* score_rows4_twin_kernel();

} // namespace lesson07::testing
