// The conflict-free twin correlate is timed against: the same kernel (demo.cuh) with the
// starter's interleaved tile, each number moved as one float2 - the second way out that the
// README's background describes. The tests own it.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson02::testing {

/// The twin's tile layout: the starter's, {re, im} after {re, im}, read and written as one
/// 8-byte access per number.
struct TwinTileLayout {
  static constexpr PairAccess kPairAccess = PairAccess::one_float2;
  /// Offset (in floats) of Re(staged number i).
  KIT_HD constexpr int re_offset(int i) const { return 2 * i; }
  /// Offset (in floats) of Im(staged number i): beside its real part.
  KIT_HD constexpr int im_offset(int i) const { return 2 * i + 1; }
};

/// correlate with TwinTileLayout (twin.cu).
void correlate_twin(const float2* x, float2* y, int n, const Taps& taps,
                    cudaStream_t stream = nullptr);
/// The __global__ function behind correlate_twin().
const void* correlate_twin_kernel();

} // namespace lesson02::testing
