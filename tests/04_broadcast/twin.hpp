// The conflict-free twin eval_polys is timed against: the same kernel (demo.cuh) with each
// polynomial's coefficients in a row of kCoefs + 1 floats. The tests own it: it is the answer
// to Part 2.
#pragma once

#include <cuda_runtime_api.h>

#include <demo.hpp>

#include "kit/layout.hpp"

namespace lesson04::testing {

/// The twin's table: polynomial q's coefficients in a row of kCoefs + 1 floats.
///
///     q = 0: offsets  0  1 ... 31  [32]        warp 0, step k: lanes 0-15 read offset k,
///     q = 1: offsets 33 34 ... 64  [65]        lanes 16-31 offset 33 + k: banks k and
///     q = 2: offsets 66 67 ... 97  [98]        k + 1, two broadcasts: 1 wavefront
using TwinCoefLayout = kit::Pitched<float, kPolysPerBlock, kCoefs, kCoefs + 1>;

/// eval_polys with TwinCoefLayout (twin.cu).
void eval_polys_twin(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                     cudaStream_t stream = nullptr);
/// The __global__ function behind eval_polys_twin().
const void* eval_polys_twin_kernel();

} // namespace lesson04::testing
