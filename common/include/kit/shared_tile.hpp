/// @file shared_tile.hpp
/// @brief A tile of shared memory in a layout: the one way a course kernel declares shared
/// memory, so that the same kernel runs on the GPU and, recorded and checked, on the CPU.
///
///     KIT_SHARED kit::SharedTile<PaddedLayout> tile;   // was: __shared__ float tile[...]
///     tile(r, c) = in[...];                             // element (r, c), through the layout
///     out[...] = tile(c, r);
///     tile.as<__half2>(r, c) = pair;                    // 4 bytes at element (r, c): (r, c + 1)
///
/// On the GPU (nvcc) it is a plain array in `__shared__` memory with a trivial constructor:
/// `tile(r, c)` is `array[layout(r, c)]`, `tile.as<V>(r, c)` is
/// `*reinterpret_cast<V*>(&array[layout(r, c)])`, and the compiled kernel is the same as with
/// the array itself. In a host build (kit/cpu_runtime.hpp) the tile is one storage per
/// declaration, shared by the threads of the running block, and every access through it is
/// recorded with its thread, byte offset, width and source line, and checked (bounds,
/// alignment, races, uninitialised reads).
#pragma once

#include "kit/config.hpp"
#include "kit/layout.hpp"

#if defined(__CUDACC__)

/// Declares a shared tile: `KIT_SHARED kit::SharedTile<Layout> tile;` (`__shared__` on the GPU;
/// in the CPU run one storage for the block's threads).
#define KIT_SHARED __shared__

namespace kit {

/// A tile of cosize<Layout>() elements of `T` in shared memory, indexed by (row, col) through
/// `Layout`, aligned to `Align` bytes (at least 4, so that pairs of halves can be one access;
/// a view as a wider type, as<float4>, needs a wider Align). Declare it with KIT_SHARED.
template <class Layout, class T = typename Layout::value_type,
          int Align = (alignof(T) > 4 ? static_cast<int>(alignof(T)) : 4)>
class SharedTile {
public:
  /// Element (row, col) of the tile.
  __device__ __forceinline__ T& operator()(int row, int col) {
    return elements_[Layout{}(row, col)];
  }

  /// The `V` that starts at element (row, col): sizeof(V) bytes, one access (e.g. a __half2:
  /// elements (row, col) and (row, col + 1)). Its byte offset must be a multiple of sizeof(V).
  template <class V>
  __device__ __forceinline__ V& as(int row, int col) {
    return *reinterpret_cast<V*>(&elements_[Layout{}(row, col)]);
  }

private:
  alignas(Align) T elements_[cosize<Layout>()];
};

} // namespace kit

#else

#include <cstring>

#include "kit/cpu_cuda.hpp"
#include "kit/cpu_runtime.hpp"

/// Declares a shared tile: in the CPU run, one storage for every thread of the running block
/// (blocks run one after another).
#define KIT_SHARED static

namespace kit {

/// An element (or a typed view of elements) of a SharedTile in the CPU run: reading it records
/// a load, assigning to it records a store, each with the line that named the element.
template <class V>
class SharedRef {
public:
  /// The element at byte `byte` of tile `tile` (element (row, col)), named at file:line.
  SharedRef(unsigned char* bytes, int tile, std::int64_t byte, int row, int col, const char* file,
            int line)
      : bytes_(bytes), tile_(tile), byte_(byte), row_(row), col_(col), file_(file), line_(line) {}

  /// A load.
  operator V() const {
    V v{};
    if (cpu_runtime::Runtime::get().shared_access(tile_, SharedOp::load, byte_, sizeof(V), row_,
                                                  col_, file_, line_)) {
      std::memcpy(static_cast<void*>(&v), bytes_ + byte_, sizeof(V));
    }
    return v;
  }
  /// A store.
  const SharedRef& operator=(const V& v) const {
    if (cpu_runtime::Runtime::get().shared_access(tile_, SharedOp::store, byte_, sizeof(V), row_,
                                                  col_, file_, line_, &v)) {
      std::memcpy(bytes_ + byte_, static_cast<const void*>(&v), sizeof(V));
    }
    return *this;
  }
  /// A load of `o`, then a store.
  const SharedRef& operator=(const SharedRef& o) const { return *this = static_cast<V>(o); }

private:
  unsigned char* bytes_;
  int tile_;
  std::int64_t byte_;
  int row_, col_;
  const char* file_;
  int line_;
};

/// A tile of cosize<Layout>() elements of `T` in shared memory, indexed by (row, col) through
/// `Layout`; in the CPU run, recorded and checked. Declare it with KIT_SHARED.
template <class Layout, class T = typename Layout::value_type,
          int Align = (alignof(T) > 4 ? static_cast<int>(alignof(T)) : 4)>
class SharedTile {
public:
  /// Registers the tile's storage with the CPU run (once: the tile is a static local).
  explicit SharedTile(const char* file = __builtin_FILE(), int line = __builtin_LINE())
      : id_(cpu_runtime::Runtime::get().add_tile(bytes_, sizeof(bytes_), Layout::kRows,
                                                 Layout::kCols, sizeof(T), file, line,
                                                 __PRETTY_FUNCTION__)) {}
  ~SharedTile() { cpu_runtime::Runtime::get().remove_tile(id_); }
  SharedTile(const SharedTile&) = delete;
  SharedTile& operator=(const SharedTile&) = delete;

  /// Element (row, col) of the tile.
  SharedRef<T> operator()(int row, int col, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) {
    return as<T>(row, col, file, line);
  }

  /// The `V` that starts at element (row, col): sizeof(V) bytes, one access.
  template <class V>
  SharedRef<V> as(int row, int col, const char* file = __builtin_FILE(),
                  int line = __builtin_LINE()) {
    const std::int64_t byte =
        static_cast<std::int64_t>(Layout{}(row, col)) * static_cast<std::int64_t>(sizeof(T));
    return SharedRef<V>(bytes_, id_, byte, row, col, file, line);
  }

private:
  alignas(Align) unsigned char bytes_[sizeof(T) * static_cast<std::size_t>(cosize<Layout>())];
  int id_;
};

} // namespace kit

#endif
