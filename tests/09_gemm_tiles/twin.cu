#include "twin.hpp"

#include "demo.cuh"

namespace lesson09::testing {
namespace {

constexpr auto kStridedScalar = gemm_tiled<Strided, 1, ASide::column>;
constexpr auto kStridedByFour = gemm_tiled<StridedByFour, 4, ASide::transposed>;

} // namespace

void gemm_strided_scalar(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream) {
  internal::launch<Strided, 1>(kStridedScalar, a, b, c, m, n, k, stream);
}
void gemm_strided_by_four(const float* a, const float* b, float* c, int m, int n, int k,
                          cudaStream_t stream) {
  internal::launch<StridedByFour, 4>(kStridedByFour, a, b, c, m, n, k, stream);
}

const void* gemm_strided_scalar_kernel() {
  return reinterpret_cast<const void*>(kStridedScalar);
}
const void* gemm_strided_by_four_kernel() {
  return reinterpret_cast<const void*>(kStridedByFour);
}

} // namespace lesson09::testing
