// The conflict-free twin eval_polys is timed against: the same kernel (demo.cuh) with each
// polynomial's coefficients in a row of its own, the narrowest rows whose Horner steps the bank
// model finds at their ideal. The tests own it, and find its pitch with the model.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/layout.hpp"

namespace lesson04::testing {

/// The polynomial (row of the block) that lane `lane` of warp `warp` evaluates: thread
/// (x, y) of the 16 x 16 block is thread 16 y + x, and lane l of warp w is thread 32 w + l,
/// so lanes 0-15 evaluate polynomial 2w and lanes 16-31 polynomial 2w + 1.
KIT_HD constexpr int block_row(int warp, int lane) {
  return (warp * kit::kWarpSize + lane) / kPointsPerTile;
}

/// The narrowest row pitch, in floats, from kCoefs up to twice it, at which every Horner step
/// of every warp (lane l reads coefficient k of polynomial block_row(w, l)) costs the model
/// its ideal; 0 when none does. The staging stores, a polynomial's 32 coefficients in a row,
/// cost their ideal at any pitch.
KIT_HD constexpr int narrowest_horner_pitch() {
  for (int pitch = kCoefs; pitch <= 2 * kCoefs; ++pitch) {
    bool ideal = true;
    for (int warp = 0; warp < kBlockThreads / kit::kWarpSize && ideal; ++warp) {
      for (int k = 0; k < kCoefs && ideal; ++k) {
        kit::WarpAccess a;
        for (int lane = 0; lane < kit::kWarpSize; ++lane) {
          a.address[lane] =
              static_cast<std::uint32_t>((block_row(warp, lane) * pitch + k) * sizeof(float));
        }
        ideal = kit::wavefronts(a) == kit::ideal_wavefronts(a.width);
      }
    }
    if (ideal) {
      return pitch;
    }
  }
  return 0;
}

inline constexpr int kTwinPitch = narrowest_horner_pitch();
static_assert(kTwinPitch > 0 && kPolysPerBlock * kTwinPitch <= kTableCapacity,
              "some pitch within the table makes every Horner step cost its ideal");

/// The twin's table: polynomial q's coefficients in row q, kTwinPitch floats apart.
using TwinCoefLayout = kit::Pitched<float, kPolysPerBlock, kCoefs, kTwinPitch>;

/// eval_polys with TwinCoefLayout (twin.cu).
void eval_polys_twin(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                     cudaStream_t stream = nullptr);
/// The __global__ function behind eval_polys_twin().
const void* eval_polys_twin_kernel();

} // namespace lesson04::testing
