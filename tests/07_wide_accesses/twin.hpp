// The conflict-free twin score_rows4 is timed against: the same kernel (the lesson's kind of
// the score_rows family) with the narrowest padded rows whose float4 column reads the bank model
// finds at their ideal. The compiler finds that pitch (kTwinPitch): no file states it, and the
// guards hold the twin's every access to its ideal.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace lesson07::testing {

/// The twin's pitch: the narrowest rows, from kTileDim floats up, that are kVec-float aligned
/// and whose float4 column read (lane l reads the start of row l) costs its ideal.
inline constexpr int kTwinPitch =
    kit::narrowest_column_pitch(kTileDim, static_cast<int>(sizeof(float)), kVec);
static_assert(kTwinPitch > 0, "no pitch up to twice the tile serves the float4 column read");

/// The twin's tile layout: rows kTwinPitch floats apart.
using TwinTileLayout = kit::Pitched<float, kTileRows, kTileDim, kTwinPitch>;

/// score_rows4 with TwinTileLayout (twin.cu).
void score_rows4_twin(const float* rows, int n_rows, int n_cols, const float* queries,
                      float* scores, cudaStream_t stream = nullptr);
/// The __global__ function behind score_rows4_twin().
const void* score_rows4_twin_kernel();

} // namespace lesson07::testing
