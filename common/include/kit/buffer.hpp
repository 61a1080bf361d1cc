/// @file buffer.hpp
/// @brief RAII owners of device memory and CUDA events.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kit/cuda_check.hpp"

namespace kit {

/// A device array of `T` that frees itself.
template <class T>
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  /// Allocates `count` elements (uninitialised).
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) {
      CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T)));
    }
  }
  /// Allocates and copies a host vector.
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  /// Takes over `o`'s allocation; `o` is left empty.
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  /// Swaps allocations with `o`, which frees this buffer's old one.
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  ~DeviceBuffer() {
    if (ptr_) {
      cudaFree(ptr_); // no throw from a destructor; a failure here has already been reported
    }
  }

  /// The device pointer.
  T* get() const { return ptr_; }
  /// Number of elements.
  std::size_t size() const { return count_; }
  /// Size in bytes.
  std::size_t bytes() const { return count_ * sizeof(T); }

  /// Copies a host vector of the same size to the device.
  void upload(const std::vector<T>& host) {
    if (host.size() != count_) {
      throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    }
    if (count_ > 0) {
      CUDA_CHECK(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
    }
  }
  /// Copies the device array back to a new host vector.
  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) {
      CUDA_CHECK(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    }
    return host;
  }
  /// Sets every byte to `byte` (poison outputs before a kernel writes them).
  void fill_bytes(int byte) {
    if (count_ > 0) {
      CUDA_CHECK(cudaMemset(ptr_, byte, bytes()));
    }
  }

private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// A CUDA event that destroys itself.
class Event {
public:
  Event() { CUDA_CHECK(cudaEventCreate(&event_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { cudaEventDestroy(event_); }
  /// Records the event on a stream.
  void record(cudaStream_t stream = nullptr) { CUDA_CHECK(cudaEventRecord(event_, stream)); }
  /// Waits for the event.
  void synchronize() { CUDA_CHECK(cudaEventSynchronize(event_)); }
  /// Milliseconds from `start` to this event (both recorded and complete).
  float ms_since(const Event& start) const {
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

private:
  cudaEvent_t event_{};
};

} // namespace kit
