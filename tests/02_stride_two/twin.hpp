// The conflict-free twin correlate is timed against: the same kernel (demo.cuh) with the
// structure-of-arrays tile. The tests own it: it is the answer to Part 3.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/config.hpp"

namespace lesson02::testing {

/// The twin's tile layout, structure of arrays: all real parts, then all imaginary parts.
///
///     offset: 0    1    2   ...  511  | 512  513  ...  1023
///     holds:  re0  re1  re2 ...  re511| im0  im1  ...  im511
///     bank:   0    1    2   ...  31   | 0    1    ...  31
///
/// A warp reads re of 32 consecutive numbers (32 consecutive words: one per bank), then im of
/// the same 32: two 4-byte requests of 1 wavefront each.
struct TwinTileLayout {
  /// Two 4-byte accesses, each to 32 consecutive words.
  static constexpr PairAccess kPairAccess = PairAccess::two_floats;
  /// Offset (in floats) of Re(staged number i).
  KIT_HD constexpr int re_offset(int i) const { return i; }
  /// Offset (in floats) of Im(staged number i): kTileElems floats after the real parts.
  KIT_HD constexpr int im_offset(int i) const { return kTileElems + i; }
};

/// correlate with TwinTileLayout (twin.cu).
void correlate_twin(const float2* x, float2* y, int n, const Taps& taps,
                    cudaStream_t stream = nullptr);
/// The __global__ function behind correlate_twin().
const void* correlate_twin_kernel();

} // namespace lesson02::testing
