#include "twin.hpp"

#include "demo.cuh"

namespace lesson04::testing {

void eval_polys_twin(const float* coefs, int n_polys, const float* points, int n_points, float* out,
                     cudaStream_t stream) {
  internal::launch_eval_polys(eval_polys_tabled<TwinCoefLayout>, coefs, n_polys, points, n_points,
                              out, stream);
}

const void* eval_polys_twin_kernel() {
  return reinterpret_cast<const void*>(&eval_polys_tabled<TwinCoefLayout>);
}

} // namespace lesson04::testing
