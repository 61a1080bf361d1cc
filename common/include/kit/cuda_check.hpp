/// @file cuda_check.hpp
/// @brief One way to check CUDA calls: a failed call throws, naming the call, file and line.
///
/// In a test, the exception fails the test with that message (GoogleTest reports an
/// uncaught exception as a failure); in a tool, `main` catches it and exits non-zero.
#pragma once

#include <cuda_runtime_api.h>

#include <sstream>
#include <stdexcept>
#include <string>

namespace kit {

/// A CUDA runtime call that failed.
class CudaError : public std::runtime_error {
public:
  /// Builds the message from the failed expression, its place and the error.
  CudaError(cudaError_t code, const char* expr, const char* file, int line)
      : std::runtime_error(format(code, expr, file, line)), code_(code) {}
  /// The CUDA error code.
  cudaError_t code() const { return code_; }

private:
  static std::string format(cudaError_t code, const char* expr, const char* file, int line) {
    std::ostringstream s;
    s << file << ":" << line << ": " << expr << " failed: " << cudaGetErrorName(code) << " ("
      << cudaGetErrorString(code) << ")";
    return s.str();
  }
  cudaError_t code_;
};

/// Throws CudaError when `code` is not cudaSuccess. Use through CUDA_CHECK.
inline void cuda_check(cudaError_t code, const char* expr, const char* file, int line) {
  if (code != cudaSuccess) {
    throw CudaError(code, expr, file, line);
  }
}

} // namespace kit

/// Checks a CUDA runtime call: `CUDA_CHECK(cudaMalloc(&p, n));`
#define CUDA_CHECK(expr) ::kit::cuda_check((expr), #expr, __FILE__, __LINE__)

/// Checks the last kernel launch (configuration errors) right after `kernel<<<...>>>(...)`.
#define CUDA_CHECK_LAUNCH()                                                                        \
  ::kit::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
