// cuBLAS SGEMM, the yardstick (GPU tests only). Built with cuBLAS when CMake's CUDAToolkit
// package found CUDA::cublas (tests/09_gemm_tiles/lesson.cmake); without it every comparison
// skips with the reason.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "kit/timer.hpp"

#if defined(LESSON09_HAVE_CUBLAS)
#include <cublas_v2.h>
#endif

namespace lesson09::testing {

/// Row-major C = A B through cuBLAS's column-major SGEMM (C^T = B^T A^T), FP32 throughout:
/// the handle's math mode is set to CUBLAS_PEDANTIC_MATH (no TF32, no reduced-precision
/// tensor-core paths, whatever the environment says).
class Cublas {
public:
  /// Why cuBLAS cannot be used here, or nullopt when it can.
  static std::optional<std::string> missing() {
#if defined(LESSON09_HAVE_CUBLAS)
    return std::nullopt;
#else
    return "this build has no cuBLAS (CMake's CUDAToolkit package found no CUDA::cublas): the "
           "comparison with cuBLAS SGEMM is not made";
#endif
  }

  Cublas() {
#if defined(LESSON09_HAVE_CUBLAS)
    check(cublasCreate(&handle_), "cublasCreate");
    check(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    check(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
#else
    throw std::logic_error(*missing());
#endif
  }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  ~Cublas() {
#if defined(LESSON09_HAVE_CUBLAS)
    if (handle_ != nullptr) {
      cublasDestroy(handle_);
    }
#endif
  }

  /// Row-major C = A B (m x k times k x n) on `stream`.
  void sgemm(const float* a, const float* b, float* c, int m, int n, int k,
             cudaStream_t stream = nullptr) {
#if defined(LESSON09_HAVE_CUBLAS)
    const float one = 1.0f, zero = 0.0f;
    check(cublasSetStream(handle_, stream), "cublasSetStream");
    check(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n, a, k, &zero, c, n),
          "cublasSgemm");
#else
    (void)a, (void)b, (void)c, (void)m, (void)n, (void)k, (void)stream;
#endif
  }

  /// cuBLAS on (a, b, c, m, n, k) as the timer wants it.
  kit::Launch launch(const float* a, const float* b, float* c, int m, int n, int k) {
    return {"cublasSgemm", nullptr, 0, 0, [=](cudaStream_t s) { sgemm(a, b, c, m, n, k, s); }};
  }

private:
#if defined(LESSON09_HAVE_CUBLAS)
  static void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
      throw std::runtime_error(std::string(what) + " failed: " + cublasGetStatusString(status));
    }
  }
  cublasHandle_t handle_ = nullptr;
#endif
};

} // namespace lesson09::testing

/// Skips the test when this build has no cuBLAS.
#define LESSON09_REQUIRE_CUBLAS()                                                                  \
  do {                                                                                             \
    if (const auto why = lesson09::testing::Cublas::missing()) {                                   \
      GTEST_SKIP() << *why;                                                                        \
    }                                                                                              \
  } while (false)
