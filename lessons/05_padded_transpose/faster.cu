#include <faster.hpp>

#include <cstdint>

#include "kit/cuda_check.hpp"

namespace lesson05::faster {
namespace {

/// Asks, once per kernel, for the largest shared-memory carveout: the small-block variants
/// need more than 100 KiB of tiles per SM to reach full occupancy, and a transpose has no use
/// for a large L1.
template <auto Kernel>
void prefer_shared() {
  static const bool done = [] {
    CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
    return true;
  }();
  (void)done;
}

/// Elements of a tile of side `tile` that starts at `origin` on an axis of `n` elements.
__device__ __forceinline__ int extent(int origin, int n, int tile) {
  return n - origin < tile ? n - origin : tile;
}

// ---------------------------------------------------------------------------------------
// Scalar padded tiles of any side that is a multiple of 32, any number of warps.
//
//   TileDim x (TileDim + 1) floats; lane x takes tile columns x, x + 32, ...
//   phase 1, a warp stores tile row y:     word y * P + c       -> bank (y + c) % 32
//   phase 2, a warp reads tile column y:   word (c) * P + y     -> bank (c + y) % 32
//   (P = TileDim + 1 is 1 more than a multiple of 32: both are one bank per lane.)
// ---------------------------------------------------------------------------------------
template <int TileDim, int BlockRows>
__global__ void __launch_bounds__(kit::kWarpSize* BlockRows)
    padded_kernel(const float* in, float* out, int rows, int cols) {
  static_assert(TileDim % kit::kWarpSize == 0, "lane x covers columns x, x + 32, ...");
  static_assert(TileDim % BlockRows == 0, "every warp covers the same rows");
  constexpr int kPitch = TileDim + 1;
  __shared__ float tile[TileDim * kPitch];
  const int x = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row0 = static_cast<int>(blockIdx.y) * TileDim;
  const int col0 = static_cast<int>(blockIdx.x) * TileDim;
  const int tile_rows = extent(row0, rows, TileDim);
  const int tile_cols = extent(col0, cols, TileDim);
  if (tile_rows == TileDim && tile_cols == TileDim) {
#pragma unroll
    for (int k = 0; k < TileDim; k += BlockRows) {
#pragma unroll
      for (int j = 0; j < TileDim; j += kit::kWarpSize) {
        tile[(ty + k) * kPitch + j + x] = in[matrix_index(row0 + ty + k, col0 + j + x, cols)];
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TileDim; k += BlockRows) {
#pragma unroll
      for (int j = 0; j < TileDim; j += kit::kWarpSize) {
        out[matrix_index(col0 + ty + k, row0 + j + x, rows)] = tile[(j + x) * kPitch + ty + k];
      }
    }
  } else {
    for (int y = ty; y < tile_rows; y += BlockRows) {
      for (int c = x; c < tile_cols; c += kit::kWarpSize) {
        tile[y * kPitch + c] = in[matrix_index(row0 + y, col0 + c, cols)];
      }
    }
    __syncthreads();
    for (int y = ty; y < tile_cols; y += BlockRows) {
      for (int r = x; r < tile_rows; r += kit::kWarpSize) {
        out[matrix_index(col0 + y, row0 + r, rows)] = tile[r * kPitch + y];
      }
    }
  }
}

template <int TileDim, int BlockRows>
void launch_padded(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  const dim3 grid(static_cast<unsigned>((cols + TileDim - 1) / TileDim),
                  static_cast<unsigned>((rows + TileDim - 1) / TileDim));
  prefer_shared<padded_kernel<TileDim, BlockRows>>();
  padded_kernel<TileDim, BlockRows>
      <<<grid, dim3(kit::kWarpSize, BlockRows), 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------------------
// float4 in global memory, scalar accesses to a 32 x 33 tile.
//
// A tile row is 8 float4 ("quads"). Thread t takes quads q = t, t + Threads, ...; quad q
// is tile row q / 8, floats 4 (q % 8) .. 4 (q % 8) + 3. A warp therefore covers 4 tile rows
// r0..r0+3 by 8 quads m = 0..7:
//   phase 1, the j-th of the 4 scalar stores: word r * 33 + 4 m + j -> bank (r + 4 m + j) % 32
//            r takes 4 consecutive values and 4 m steps by 4: 32 banks, 1 wavefront.
//   phase 2, output row R (tile column R), quad m is tile rows 4 m .. 4 m + 3; the j-th of
//            the 4 scalar loads: word (4 m + j) * 33 + R -> bank (4 m + j + R) % 32:
//            R takes 4 consecutive values: 32 banks, 1 wavefront.
// Each thread keeps its quads of phase 1 in registers, so all of its 16-byte loads are in
// flight at once. Tiles that are ragged, or matrices whose rows are not 16-byte multiples,
// take a scalar path.
// ---------------------------------------------------------------------------------------
constexpr int kVecPitch = kTileDim + 1;
constexpr int kQuadsPerRow = kTileDim / 4;
constexpr int kQuadsPerTile = kTileDim * kQuadsPerRow;

template <bool Streaming>
__device__ __forceinline__ float4 load4(const float* p) {
  if constexpr (Streaming) {
    return __ldcs(reinterpret_cast<const float4*>(p));
  } else {
    return *reinterpret_cast<const float4*>(p);
  }
}

template <bool Streaming>
__device__ __forceinline__ void store4(float* p, float4 v) {
  if constexpr (Streaming) {
    __stcs(reinterpret_cast<float4*>(p), v);
  } else {
    *reinterpret_cast<float4*>(p) = v;
  }
}

__device__ __forceinline__ bool aligned16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

template <int Threads, bool Streaming>
__global__ void __launch_bounds__(Threads)
    vec4_kernel(const float* in, float* out, int rows, int cols) {
  static_assert(kQuadsPerTile % Threads == 0 && Threads % kit::kWarpSize == 0,
                "every thread moves the same number of quads");
  constexpr int kQuadsPerThread = kQuadsPerTile / Threads;
  __shared__ float tile[kTileDim * kVecPitch];
  const int t = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim;
  const int tile_rows = extent(row0, rows, kTileDim);
  const int tile_cols = extent(col0, cols, kTileDim);
  const bool vector_path = tile_rows == kTileDim && tile_cols == kTileDim && cols % 4 == 0 &&
                           rows % 4 == 0 && aligned16(in) && aligned16(out);
  if (vector_path) {
    float4 v[kQuadsPerThread];
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      v[k] = load4<Streaming>(
          in + matrix_index(row0 + q / kQuadsPerRow, col0 + 4 * (q % kQuadsPerRow), cols));
    }
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      float* row = tile + (q / kQuadsPerRow) * kVecPitch + 4 * (q % kQuadsPerRow);
      row[0] = v[k].x; // bank (r + 4 m + 0) % 32
      row[1] = v[k].y;
      row[2] = v[k].z;
      row[3] = v[k].w;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      const int r_out = q / kQuadsPerRow; // output row within the tile (a tile column)
      const int m = q % kQuadsPerRow;     // output floats 4 m .. 4 m + 3 (tile rows)
      const float* col = tile + 4 * m * kVecPitch + r_out;
      float4 w;
      w.x = col[0 * kVecPitch]; // bank (4 m + 0 + r_out) % 32
      w.y = col[1 * kVecPitch];
      w.z = col[2 * kVecPitch];
      w.w = col[3 * kVecPitch];
      store4<Streaming>(out + matrix_index(col0 + r_out, row0 + 4 * m, rows), w);
    }
    return;
  }
  // Scalar path: element e of the tile is row e / 32, column e % 32 (a warp: one row).
  for (int e = t; e < kTileDim * kTileDim; e += Threads) {
    const int r = e / kTileDim, c = e % kTileDim;
    if (r < tile_rows && c < tile_cols) {
      tile[r * kVecPitch + c] = in[matrix_index(row0 + r, col0 + c, cols)];
    }
  }
  __syncthreads();
  for (int e = t; e < kTileDim * kTileDim; e += Threads) {
    const int r_out = e / kTileDim, c_out = e % kTileDim; // output (col0 + r_out, row0 + c_out)
    if (r_out < tile_cols && c_out < tile_rows) {
      out[matrix_index(col0 + r_out, row0 + c_out, rows)] = tile[c_out * kVecPitch + r_out];
    }
  }
}

/// The copy with the same quads as vec4_kernel's phase 1, stored straight back.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    copy_vec4_kernel(const float* in, float* out, int rows, int cols) {
  constexpr int kQuadsPerThread = kQuadsPerTile / Threads;
  const int t = static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim;
  const int col0 = static_cast<int>(blockIdx.x) * kTileDim;
  const int tile_rows = extent(row0, rows, kTileDim);
  const int tile_cols = extent(col0, cols, kTileDim);
  if (tile_rows == kTileDim && tile_cols == kTileDim && cols % 4 == 0 && aligned16(in) &&
      aligned16(out)) {
    float4 v[kQuadsPerThread];
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      v[k] = load4<false>(
          in + matrix_index(row0 + q / kQuadsPerRow, col0 + 4 * (q % kQuadsPerRow), cols));
    }
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      store4<false>(
          out + matrix_index(row0 + q / kQuadsPerRow, col0 + 4 * (q % kQuadsPerRow), cols), v[k]);
    }
    return;
  }
  for (int e = t; e < kTileDim * kTileDim; e += Threads) {
    const int r = e / kTileDim, c = e % kTileDim;
    if (r < tile_rows && c < tile_cols) {
      out[matrix_index(row0 + r, col0 + c, cols)] = in[matrix_index(row0 + r, col0 + c, cols)];
    }
  }
}

template <auto Kernel, int Threads>
void launch_1d(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  prefer_shared<Kernel>();
  Kernel<<<tile_grid(rows, cols), Threads, 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

} // namespace

void transpose_padded_32x4(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_padded<32, 4>(in, out, rows, cols, stream);
}

void transpose_padded_32x16(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_padded<32, 16>(in, out, rows, cols, stream);
}

void transpose_padded_64x8(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_padded<64, 8>(in, out, rows, cols, stream);
}

void transpose_padded_vec4_64t(const float* in, float* out, int rows, int cols,
                               cudaStream_t stream) {
  launch_1d<vec4_kernel<64, false>, 64>(in, out, rows, cols, stream);
}

void transpose_padded_vec4_128t(const float* in, float* out, int rows, int cols,
                                cudaStream_t stream) {
  launch_1d<vec4_kernel<128, false>, 128>(in, out, rows, cols, stream);
}

void transpose_padded_vec4_128t_cs(const float* in, float* out, int rows, int cols,
                                   cudaStream_t stream) {
  launch_1d<vec4_kernel<128, true>, 128>(in, out, rows, cols, stream);
}

void copy_vec4(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  launch_1d<copy_vec4_kernel<128>, 128>(in, out, rows, cols, stream);
}

} // namespace lesson05::faster
