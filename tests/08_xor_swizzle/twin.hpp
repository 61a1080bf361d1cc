// The padded twin score_rows is timed against: the same kernel (the lesson's kind of the
// score_rows family) with the best padding for its accesses, rows 34 floats apart, which keeps
// every pair in order. The tests own it.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "score_rows/shape.hpp"

namespace lesson08::testing {

/// The twin's tile layout: the best padding for these accesses, rows 34 floats apart.
using TwinTileLayout = Pitch34Tile;
/// The twin's pair store: pitch 34 keeps every pair in order.
using TwinPairs = families::score_rows::PairsInOrder<TwinTileLayout>;

/// score_rows with TwinTileLayout and TwinPairs (twin.cu).
void score_rows_twin(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                     cudaStream_t stream = nullptr);
/// The __global__ function behind score_rows_twin().
const void* score_rows_twin_kernel();

} // namespace lesson08::testing
