/// @file lessons/11_tma_swizzle/internal.cuh
/// @brief Lesson 11's plumbing: the tensor map (built through the driver entry point, no
/// driver library linked), the mbarrier, the TMA copy, the bounded wait and the report of a
/// wait that gave up. You do not need to edit this file; the README walks through it.
#pragma once

#include <cuda.h>         // CUtensorMap and the encode function's types (no libcuda is linked)
#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled
#include <cuda_runtime.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>

#include <demo.hpp>

namespace lesson11::internal {

/// The first wait that gave up in a launch (device side; take_wait_failure() reads it).
struct DeviceWaitFailure {
  int failed;             ///< 0 until a wait gives up.
  int tile_row, tile_col; ///< The tile.
  unsigned expected;      ///< Bytes the barrier expected.
  unsigned box_bytes;     ///< Bytes the copy delivers.
};
/// Where kernels report a wait that gave up (this header is included by demo.cu alone).
__device__ DeviceWaitFailure g_wait_failure;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/// The shared-window address of a generic pointer into shared memory (what PTX's shared
/// operands take).
__device__ inline std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

/// Initialises an mbarrier for one arrival per phase, and makes that visible to the TMA unit.
__device__ inline void barrier_init(std::uint64_t* bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/// The one arrival of this phase, telling the barrier to also wait for `bytes` bytes of copies.
__device__ inline void barrier_expect_bytes(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)),
               "r"(bytes)
               : "memory");
}

/// One TMA copy: the box whose first element is (row0, col0) of the tensor map's matrix, into
/// `tile`, counted against `bar`'s expected bytes as it lands.
__device__ inline void copy_box(void* tile, const CUtensorMap* map, int row0, int col0,
                                std::uint64_t* bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" ::"r"(shared_address(tile)),
               "l"(reinterpret_cast<std::uint64_t>(map)), "r"(col0), "r"(row0),
               "r"(shared_address(bar))
               : "memory");
}

/// True when the barrier's phase `parity` has completed (waits a little in hardware first).
__device__ inline bool barrier_try_wait(std::uint64_t* bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(shared_address(bar)), "r"(parity)
               : "memory");
  return done != 0;
}

/// Nanoseconds of the GPU's global timer.
__device__ inline std::uint64_t global_ns() {
  std::uint64_t t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// The bounded wait of one warp for phase `parity`: lane 0 waits up to kWaitLimitNs, then
/// every lane makes the completed phase its own (an acquire, so the tile's bytes are visible
/// to it). Returns false in every lane, after lane 0 reported the tile, when the phase did not
/// complete in time: a barrier that expects more bytes than the copy delivers never does.
__device__ inline bool warp_wait(std::uint64_t* bar, std::uint32_t parity, int row0, int col0,
                                 std::uint32_t expected, std::uint32_t box_bytes) {
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  int done = 0;
  if (lane == 0) {
    const std::uint64_t start = global_ns();
    while (!(done = barrier_try_wait(bar, parity)) && global_ns() - start < kWaitLimitNs) {
    }
    if (!done && atomicCAS(&g_wait_failure.failed, 0, 1) == 0) {
      g_wait_failure.tile_row = row0;
      g_wait_failure.tile_col = col0;
      g_wait_failure.expected = expected;
      g_wait_failure.box_bytes = box_bytes;
    }
  }
  done = __shfl_sync(0xffffffffu, done, 0);
  if (done) {
    while (!barrier_try_wait(bar, parity)) { // completed: returns at once
    }
  }
  return done != 0;
}

/// The dynamic shared memory rounded up to kTileAlignment: the base the runtime gives is
/// only 16-byte aligned (and follows any static shared memory), and the swizzle of a tile
/// is computed from its address bits.
__device__ inline unsigned char* aligned_tiles(unsigned char* dynamic_base) {
  const std::uint32_t a = shared_address(dynamic_base);
  const std::uint32_t pad = (kTileAlignment - a % kTileAlignment) % kTileAlignment;
  return dynamic_base + pad;
}
#endif

/// Dynamic shared memory for `tiles` tiles of `box_bytes` each, with room to align them.
constexpr std::size_t tiles_smem(int tiles, int box_bytes) {
  return static_cast<std::size_t>(tiles) * box_bytes + kTileAlignment;
}

/// cuTensorMapEncodeTiled, from the driver through the runtime (nullptr where the driver lacks it).
inline PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                         &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
      cudaGetLastError();
      p = nullptr;
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

/// The tensor map of an n_rows x n_cols row-major float matrix, boxes of kBoxRows x box_cols,
/// in `mode`. Throws std::invalid_argument for a matrix the TMA cannot describe
/// (n_cols % 4 != 0, a pointer not 16-byte aligned) and std::runtime_error when the driver
/// refuses.
inline CUtensorMap make_tensor_map(const float* matrix, int n_rows, int n_cols, int box_cols,
                                   SwizzleMode mode) {
  if (n_rows <= 0 || n_cols <= 0 || n_cols % kChunkFloats != 0 ||
      reinterpret_cast<std::uintptr_t>(matrix) % kChunkBytes != 0) {
    std::ostringstream m;
    m << "a " << n_rows << " x " << n_cols << " float matrix at " << matrix
      << " cannot be a TMA tensor: rows must be a multiple of 16 bytes apart (n_cols % 4 == 0) "
         "and the matrix 16-byte aligned";
    throw std::invalid_argument(m.str());
  }
  const auto encode = encode_function();
  if (encode == nullptr) {
    throw std::runtime_error("the CUDA driver does not provide cuTensorMapEncodeTiled");
  }
  const CUtensorMapSwizzle swizzle = mode == SwizzleMode::b32    ? CU_TENSOR_MAP_SWIZZLE_32B
                                     : mode == SwizzleMode::b64  ? CU_TENSOR_MAP_SWIZZLE_64B
                                     : mode == SwizzleMode::b128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                                                 : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMap map{};
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(n_cols), static_cast<cuuint64_t>(n_rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(n_cols) * sizeof(float)}; // bytes
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols), kBoxRows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r =
      encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(matrix), dims, strides,
             box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
             CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::ostringstream m;
    m << "cuTensorMapEncodeTiled refused a " << n_rows << " x " << n_cols << " matrix, box "
      << kBoxRows << " x " << box_cols << ", swizzle " << mode_name(mode) << " (CUresult "
      << static_cast<int>(r) << ")";
    throw std::runtime_error(m.str());
  }
  return map;
}

} // namespace lesson11::internal
