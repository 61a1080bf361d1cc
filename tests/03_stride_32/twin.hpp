// The conflict-free twin score_rows is timed against: the same kernel (the lesson's kind of the
// score_rows family) with rows kTileDim + 1 floats apart. The tests own it: it is the answer
// to the exercise.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson03::testing {

/// The twin's tile layout: rows kTileDim + 1 floats apart.
using TwinTileLayout = kit::Pitched<float, kTileRows, kTileDim, kTileDim + 1>;

/// score_rows with TwinTileLayout (twin.cu).
void score_rows_twin(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                     cudaStream_t stream = nullptr);
/// The __global__ function behind score_rows_twin().
const void* score_rows_twin_kernel();

} // namespace lesson03::testing
