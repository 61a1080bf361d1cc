// The conflict-free twin score_rows is timed against: the same kernel (the lesson's kind of the
// score_rows family) with the narrowest padded rows whose column read the bank model finds at
// its ideal. The compiler finds that pitch (kTwinPitch): no file states it, and the guards hold
// the twin's every access to its ideal.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace lesson03::testing {

/// The twin's pitch: the narrowest rows, from kTileDim floats up, whose column read (lane l
/// reads the start of row l) costs its ideal.
inline constexpr int kTwinPitch =
    kit::narrowest_column_pitch(kTileDim, static_cast<int>(sizeof(float)));
static_assert(kTwinPitch > 0, "no pitch up to twice the tile serves the column read");

/// The twin's tile layout: rows kTwinPitch floats apart.
using TwinTileLayout = kit::Pitched<float, kTileRows, kTileDim, kTwinPitch>;

/// score_rows with TwinTileLayout (twin.cu).
void score_rows_twin(const float* rows, int n_rows, int n_cols, const float* queries, float* scores,
                     cudaStream_t stream = nullptr);
/// The __global__ function behind score_rows_twin().
const void* score_rows_twin_kernel();

} // namespace lesson03::testing
