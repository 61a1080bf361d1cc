// The conflict-free twin score_rows4 is timed against: the same kernel (the lesson's kind of
// the score_rows family) with the narrowest padded rows whose float4 column reads the bank model
// finds at their ideal. The compiler finds that pitch (twin_pitch): no file states it, and the
// guards hold the twin's every access to its ideal.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace lesson07::testing {

/// The narrowest row pitch, from kTileDim floats up, whose row starts are kVec-float aligned and
/// whose column read (lane l reads the kVec floats at the start of row l) costs its ideal.
constexpr int twin_pitch() {
  for (int pitch = kTileDim; pitch <= 2 * kTileDim; ++pitch) {
    if (pitch % kVec != 0) {
      continue;
    }
    kit::WarpAccess column;
    column.width = kVec * static_cast<int>(sizeof(float));
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      column.address[lane] = static_cast<std::uint32_t>(lane * pitch * sizeof(float));
    }
    if (kit::wavefronts(column) == kit::ideal_wavefronts(column.width)) {
      return pitch;
    }
  }
  return 0;
}
static_assert(twin_pitch() > 0, "no pitch up to twice the tile serves the float4 column read");

/// The twin's tile layout: rows twin_pitch() floats apart.
using TwinTileLayout = kit::Pitched<float, kTileRows, kTileDim, twin_pitch()>;

/// score_rows4 with TwinTileLayout (twin.cu).
void score_rows4_twin(const float* rows, int n_rows, int n_cols, const float* queries,
                      float* scores, cudaStream_t stream = nullptr);
/// The __global__ function behind score_rows4_twin().
const void* score_rows4_twin_kernel();

} // namespace lesson07::testing
