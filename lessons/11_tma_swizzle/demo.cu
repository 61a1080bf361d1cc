#include <demo.hpp>
#include <exercise.hpp>

#include <algorithm>

#include "internal.cuh"
#include "kit/cuda_check.hpp"
#include "kit/shared_access.cuh"

namespace lesson11 {
namespace {

// [copy_tiles]
/// Every tile of the matrix, global -> TMA -> shared -> global, one warp per tile at a time:
/// lane 0 tells the warp's mbarrier how many bytes to expect and starts the copy; the warp
/// waits (bounded), reads chunk k of row `lane` for every k through Box::Read, 16 bytes
/// a lane, and writes it to the same place in `out`.
template <class Box>
__global__ void __launch_bounds__(kCopyWarps* kit::kWarpSize)
    copy_tiles_tma(const __grid_constant__ CUtensorMap map, float* __restrict__ out, int n_rows,
                   int n_cols, std::uint32_t expected) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ unsigned char dynamic_smem[];
  __shared__ std::uint64_t bars[kCopyWarps]; // one mbarrier per warp
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int warp = static_cast<int>(threadIdx.x) / kit::kWarpSize;
  float* tile =
      reinterpret_cast<float*>(internal::aligned_tiles(dynamic_smem) + warp * Box::kBytes);
  std::uint64_t* bar = &bars[warp];
  if (lane == 0) {
    internal::barrier_init(bar);
  }
  __syncwarp();
  constexpr typename Box::Read read{};
  const int tiles_across = (n_cols + Box::kCols - 1) / Box::kCols;
  const int tiles = (n_rows + kBoxRows - 1) / kBoxRows * tiles_across;
  std::uint32_t parity = 0; // the barrier's phase this tile completes
  for (int t = static_cast<int>(blockIdx.x) * kCopyWarps + warp; t < tiles;
       t += static_cast<int>(gridDim.x) * kCopyWarps) {
    const int row0 = t / tiles_across * kBoxRows;
    const int col0 = t % tiles_across * Box::kCols;
    if (lane == 0) {
      internal::barrier_expect_bytes(bar, expected);
      internal::copy_box(tile, &map, row0, col0, bar);
    }
    if (!internal::warp_wait(bar, parity, row0, col0, expected, Box::kBytes)) {
      return; // reported: take_wait_failure() says which tile
    }
    parity ^= 1u;
    const int row = row0 + lane;
#pragma unroll
    for (int k = 0; k < Box::kChunks; ++k) {
      const float4 v = kit::ld_shared(reinterpret_cast<const float4*>(
          tile + read(lane, k * kChunkFloats))); // chunk k, row lane
      const int col = col0 + k * kChunkFloats;
      if (row < n_rows && col < n_cols) {
        *reinterpret_cast<float4*>(out + static_cast<long>(row) * n_cols + col) = v;
      }
    }
    __syncwarp(); // the whole tile is read before the next copy overwrites it
  }
#endif
}
// [copy_tiles]

/// The tiles of one 32-row stripe per block, one after another across the columns; warp q
/// reads the whole tile and scores its rows against query q. Two tiles in flight: the copy of
/// tile i + 1 runs while the warps read tile i.
template <class Box>
__global__ void __launch_bounds__(kScoreThreads)
    score_tiles_tma(const __grid_constant__ CUtensorMap map, const float* __restrict__ queries,
                    float* __restrict__ scores, int n_rows, int n_cols) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ unsigned char dynamic_smem[];
  __shared__ std::uint64_t bars[kScoreStages]; // one mbarrier per buffer
  const int lane = static_cast<int>(threadIdx.x) % kit::kWarpSize;
  const int query = static_cast<int>(threadIdx.x) / kit::kWarpSize;
  unsigned char* tiles = internal::aligned_tiles(dynamic_smem);
  if (threadIdx.x == 0) {
    for (int b = 0; b < kScoreStages; ++b) {
      internal::barrier_init(&bars[b]);
    }
  }
  __syncthreads();
  constexpr typename Box::Read read{};
  const int row0 = static_cast<int>(blockIdx.x) * kBoxRows;
  const int n_tiles = (n_cols + Box::kCols - 1) / Box::kCols;
  const auto start_copy = [&](int i) { // tile i into buffer i % kScoreStages
    std::uint64_t* bar = &bars[i % kScoreStages];
    internal::barrier_expect_bytes(bar, Box::kBytes);
    internal::copy_box(tiles + (i % kScoreStages) * Box::kBytes, &map, row0, i * Box::kCols, bar);
  };
  if (threadIdx.x == 0) {
    start_copy(0);
  }
  const float* q = queries + static_cast<long>(query) * n_cols;
  float score = 0.0f;
  for (int i = 0; i < n_tiles; ++i) {
    if (threadIdx.x == 0 && i + 1 < n_tiles) {
      start_copy(i + 1); // its buffer was read in iteration i - 1, before the __syncthreads
    }
    const int col0 = i * Box::kCols;
    const auto parity = static_cast<std::uint32_t>(i / kScoreStages % 2); // the buffer's use
    const bool ok =
        internal::warp_wait(&bars[i % kScoreStages], parity, row0, col0, Box::kBytes, Box::kBytes);
    if (__syncthreads_or(!ok)) {
      return; // reported
    }
    const float* tile = reinterpret_cast<const float*>(tiles + (i % kScoreStages) * Box::kBytes);
#pragma unroll
    for (int k = 0; k < Box::kChunks; ++k) {
      const float4 v = kit::ld_shared(reinterpret_cast<const float4*>(
          tile + read(lane, k * kChunkFloats))); // chunk k, row lane
      const int col = col0 + k * kChunkFloats;
      if (col < n_cols) { // the same for every lane: past the matrix the tile holds zeros
        const float4 w = __ldg(reinterpret_cast<const float4*>(q + col));
        score = fmaf(v.x, w.x, fmaf(v.y, w.y, fmaf(v.z, w.z, fmaf(v.w, w.w, score))));
      }
    }
    __syncthreads(); // every warp has read buffer i % kScoreStages before it is copied into again
  }
  if (row0 + lane < n_rows) {
    scores[static_cast<long>(query) * n_rows + row0 + lane] = score;
  }
#endif
}

using BoxNone32x8 = Box<SwizzleMode::none, PlainBoxLayout<kBox32Cols>>;
using Box32 = Box<SwizzleMode::b32, Swizzle32Layout>;
using BoxNone32x16 = Box<SwizzleMode::none, PlainBoxLayout<kBox64Cols>>;
using Box64 = Box<SwizzleMode::b64, Swizzle64Layout>;
using BoxNone32x32 = Box<SwizzleMode::none, PlainBoxLayout<kBox128Cols>>;
using Box128 = Box<SwizzleMode::b128, Read128Layout>; // your layout
static_assert(holds_the_128b_box<Read128Layout>());

/// Calls f(Box{}) with the box type of configuration `c`.
template <class F>
decltype(auto) with_box(Config c, F&& f) {
  switch (c) {
  case Config::none32x8:
    return f(BoxNone32x8{});
  case Config::b32:
    return f(Box32{});
  case Config::none32x16:
    return f(BoxNone32x16{});
  case Config::b64:
    return f(Box64{});
  case Config::none32x32:
    return f(BoxNone32x32{});
  case Config::b128:
    break;
  }
  return f(Box128{});
}

} // namespace

std::string mode_name(SwizzleMode m) {
  return m == SwizzleMode::none ? "none" : std::to_string(span_bytes(m)) + "B";
}

std::string config_name(Config c) {
  return with_box(c, [](auto box) {
    using B = decltype(box);
    return mode_name(B::kMode) + ", " + std::to_string(kBoxRows) + " x " +
           std::to_string(B::kCols) + " box";
  });
}

SwizzleMode config_mode(Config c) {
  return with_box(c, [](auto box) { return decltype(box)::kMode; });
}

std::optional<std::string> tma_unavailable() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return "no usable GPU";
  }
  if (prop.major < 9) {
    return "the TMA needs sm_90 or newer; this GPU (" + std::string(prop.name) + ") is sm_" +
           std::to_string(prop.major * 10 + prop.minor);
  }
  cudaFuncAttributes attr{};
  if (cudaFuncGetAttributes(&attr, copy_tiles_tma<Box128>) != cudaSuccess ||
      attr.binaryVersion < 90) {
    cudaGetLastError();
    return "this build has no sm_90 (or newer) code for the TMA kernels: configure with "
           "CMAKE_CUDA_ARCHITECTURES=90 (or your GPU's architecture)";
  }
  if (internal::encode_function() == nullptr) {
    return "the CUDA driver does not provide cuTensorMapEncodeTiled";
  }
  return std::nullopt;
}

void copy_tiles(Config c, const float* in, float* out, int n_rows, int n_cols,
                std::uint32_t expected_bytes, cudaStream_t stream) {
  if (n_rows <= 0 || n_cols <= 0) {
    return;
  }
  with_box(c, [&](auto box) {
    using B = decltype(box);
    const CUtensorMap map = internal::make_tensor_map(in, n_rows, n_cols, B::kCols, B::kMode);
    const int tiles = (n_rows + kBoxRows - 1) / kBoxRows * ((n_cols + B::kCols - 1) / B::kCols);
    const int blocks = std::min((tiles + kCopyWarps - 1) / kCopyWarps, 4096);
    const std::uint32_t expected = expected_bytes != 0 ? expected_bytes : B::kBytes;
    copy_tiles_tma<B>
        <<<blocks, kCopyWarps * kit::kWarpSize, internal::tiles_smem(kCopyWarps, B::kBytes),
           stream>>>(map, out, n_rows, n_cols, expected);
    CUDA_CHECK_LAUNCH();
  });
}

void score_tiles(Config c, const float* matrix, const float* queries, float* scores, int n_rows,
                 int n_cols, cudaStream_t stream) {
  if (n_rows <= 0 || n_cols <= 0) {
    return;
  }
  with_box(c, [&](auto box) {
    using B = decltype(box);
    const CUtensorMap map = internal::make_tensor_map(matrix, n_rows, n_cols, B::kCols, B::kMode);
    const int blocks = (n_rows + kBoxRows - 1) / kBoxRows;
    score_tiles_tma<B>
        <<<blocks, kScoreThreads, internal::tiles_smem(kScoreStages, B::kBytes), stream>>>(
            map, queries, scores, n_rows, n_cols);
    CUDA_CHECK_LAUNCH();
  });
}

std::optional<WaitFailure> take_wait_failure() {
  CUDA_CHECK(cudaDeviceSynchronize());
  internal::DeviceWaitFailure f{};
  CUDA_CHECK(cudaMemcpyFromSymbol(&f, internal::g_wait_failure, sizeof(f)));
  if (f.failed == 0) {
    return std::nullopt;
  }
  const internal::DeviceWaitFailure clear{};
  CUDA_CHECK(cudaMemcpyToSymbol(internal::g_wait_failure, &clear, sizeof(clear)));
  return WaitFailure{f.tile_row, f.tile_col, f.expected, f.box_bytes};
}

const void* score_tiles_kernel(Config c) {
  return with_box(
      c, [](auto box) { return reinterpret_cast<const void*>(&score_tiles_tma<decltype(box)>); });
}

std::size_t score_tiles_smem(Config c) {
  return with_box(
      c, [](auto box) { return internal::tiles_smem(kScoreStages, decltype(box)::kBytes); });
}

} // namespace lesson11
