#include <demo.hpp>
#include <exercise.hpp>

#include "demo.cuh"
#include "internal.cuh"

namespace lesson09 {
namespace {

/// The variants of the lesson, by name.
constexpr auto kBlockedScalar = gemm_tiled<Blocked, 1, ASide::column>;
constexpr auto kExercise = gemm_tiled<FragmentColumns, 1, ASide::column>;
constexpr auto kBlockedFloat4 = gemm_tiled<Blocked, 4, ASide::transposed>;
constexpr auto kExerciseFloat4 = gemm_tiled<Float4Columns, 4, ASide::transposed>;

} // namespace

void gemm_blocked_scalar(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream) {
  internal::launch<Blocked, 1>(kBlockedScalar, a, b, c, m, n, k, stream);
}
void gemm_exercise(const float* a, const float* b, float* c, int m, int n, int k,
                   cudaStream_t stream) {
  internal::launch<FragmentColumns, 1>(kExercise, a, b, c, m, n, k, stream);
}
void gemm_blocked_float4(const float* a, const float* b, float* c, int m, int n, int k,
                         cudaStream_t stream) {
  internal::launch<Blocked, 4>(kBlockedFloat4, a, b, c, m, n, k, stream);
}
void gemm_exercise_float4(const float* a, const float* b, float* c, int m, int n, int k,
                          cudaStream_t stream) {
  internal::launch<Float4Columns, 4>(kExerciseFloat4, a, b, c, m, n, k, stream);
}

const void* gemm_blocked_scalar_kernel() {
  return reinterpret_cast<const void*>(kBlockedScalar);
}
const void* gemm_exercise_kernel() {
  return reinterpret_cast<const void*>(kExercise);
}
const void* gemm_blocked_float4_kernel() {
  return reinterpret_cast<const void*>(kBlockedFloat4);
}
const void* gemm_exercise_float4_kernel() {
  return reinterpret_cast<const void*>(kExerciseFloat4);
}

} // namespace lesson09
