#include "variants.hpp"

#include <cstdint>

#include "kit/cuda_check.hpp"
#include "kit/layout.hpp"
#include "kit/matrix.hpp"
#include "kit/shared_access.cuh"
#include "variant_layouts.hpp"

namespace transpose_variants {
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

/// Asks, once per kernel, for the smallest carveout that still holds as many blocks a SM as
/// the largest one does (the rest stays L1). The percentage is of the largest shared memory
/// an SM can have; the driver takes the next configuration up. Should the driver's choice
/// hold fewer blocks after all, the largest carveout is asked for again.
template <auto Kernel>
void fit_shared(int block_threads) {
  static const bool done = [block_threads] {
    CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
    int device = 0, full = 0, smem_per_sm = 0, reserved = 0, fitted = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&full, Kernel, block_threads, 0));
    CUDA_CHECK(
        cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, Kernel));
    const long long need =
        static_cast<long long>(full) * (static_cast<long long>(attr.sharedSizeBytes) + reserved);
    const int percent = static_cast<int>((100 * need + smem_per_sm - 1) / smem_per_sm);
    CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    percent < 100 ? percent : 100));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fitted, Kernel, block_threads, 0));
    if (fitted < full) {
      CUDA_CHECK(cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                      cudaSharedmemCarveoutMaxShared));
    }
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
//   TileDim x (TileDim + 1) floats (PaddedLayout); lane x takes tile columns x, x + 32, ...
//   phase 1, a warp stores tile row y:     element (y, c)  -> bank (y + c) % 32
//   phase 2, a warp reads tile column y:   element (c, y)  -> bank (c + y) % 32
//   (one bank per lane either way). The phases are functions so that the one-tile kernel
//   and the persistent kernel share them.
// ---------------------------------------------------------------------------------------
template <int TileDim, int BlockRows>
struct PaddedTile {
  static_assert(TileDim % kit::kWarpSize == 0, "lane x covers columns x, x + 32, ...");
  static_assert(TileDim % BlockRows == 0, "every warp covers the same rows");
  /// Where each element lives: rows one bank apart.
  using Layout = PaddedLayout<TileDim>;
  static constexpr int kColsPerLane = TileDim / kit::kWarpSize;
  /// Floats one thread moves per phase of a full tile.
  static constexpr int kPerThread = (TileDim / BlockRows) * kColsPerLane;
  /// Floats of the shared tile: TileDim rows of Layout::kPitch.
  static constexpr int kTileFloats = TileDim * Layout::kPitch;

  /// Phase 1 of a full tile, global side: every load of the thread, none used yet, so all
  /// of them are in flight together.
  __device__ static void load(float (&v)[kPerThread], const float* in, int row0, int col0,
                              int cols) {
    const int x = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
#pragma unroll
    for (int k = 0; k < TileDim; k += BlockRows) {
#pragma unroll
      for (int j = 0; j < TileDim; j += kit::kWarpSize) {
        v[(k / BlockRows) * kColsPerLane + j / kit::kWarpSize] =
            in[kit::matrix_index(row0 + ty + k, col0 + j + x, cols)];
      }
    }
  }

  /// Phase 1 of a full tile, shared side: a warp stores a tile row (1 wavefront).
  __device__ static void stash(const float (&v)[kPerThread], float* tile) {
    const int x = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
#pragma unroll
    for (int k = 0; k < TileDim; k += BlockRows) {
#pragma unroll
      for (int j = 0; j < TileDim; j += kit::kWarpSize) {
        tile[Layout{}(ty + k, j + x)] = v[(k / BlockRows) * kColsPerLane + j / kit::kWarpSize];
      }
    }
  }

  /// Phase 2 of a full tile: a warp reads a tile column (1 wavefront) and writes it as a
  /// row of the output.
  __device__ static void write(float* out, const float* tile, int row0, int col0, int rows) {
    const int x = static_cast<int>(threadIdx.x);
    const int ty = static_cast<int>(threadIdx.y);
#pragma unroll
    for (int k = 0; k < TileDim; k += BlockRows) {
#pragma unroll
      for (int j = 0; j < TileDim; j += kit::kWarpSize) {
        out[kit::matrix_index(col0 + ty + k, row0 + j + x, rows)] = tile[Layout{}(j + x, ty + k)];
      }
    }
  }

  /// Phase 1 of a ragged tile: only its tile_rows x tile_cols elements.
  __device__ static void load_ragged(float* tile, const float* in, int row0, int col0,
                                     int tile_rows, int tile_cols, int cols) {
    const int x = static_cast<int>(threadIdx.x);
    for (int y = static_cast<int>(threadIdx.y); y < tile_rows; y += BlockRows) {
      for (int c = x; c < tile_cols; c += kit::kWarpSize) {
        tile[Layout{}(y, c)] = in[kit::matrix_index(row0 + y, col0 + c, cols)];
      }
    }
  }

  /// Phase 2 of a ragged tile.
  __device__ static void write_ragged(float* out, const float* tile, int row0, int col0,
                                      int tile_rows, int tile_cols, int rows) {
    const int x = static_cast<int>(threadIdx.x);
    for (int y = static_cast<int>(threadIdx.y); y < tile_cols; y += BlockRows) {
      for (int r = x; r < tile_rows; r += kit::kWarpSize) {
        out[kit::matrix_index(col0 + y, row0 + r, rows)] = tile[Layout{}(r, y)];
      }
    }
  }

  /// Both phases of the tile whose first element is (row0, col0).
  __device__ static void move(float* tile, const float* in, float* out, int rows, int cols,
                              int row0, int col0) {
    const int tile_rows = extent(row0, rows, TileDim);
    const int tile_cols = extent(col0, cols, TileDim);
    if (tile_rows == TileDim && tile_cols == TileDim) {
      float v[kPerThread];
      load(v, in, row0, col0, cols);
      stash(v, tile);
      __syncthreads();
      write(out, tile, row0, col0, rows);
    } else {
      load_ragged(tile, in, row0, col0, tile_rows, tile_cols, cols);
      __syncthreads();
      write_ragged(out, tile, row0, col0, tile_rows, tile_cols, rows);
    }
  }
};

/// Which tile a block takes (variant_layouts.hpp).
enum class TileOrder {
  rows,  ///< a 2D grid: blockIdx.y is the tile row, blockIdx.x the tile column
  bands, ///< a 1D grid: banded_tile(blockIdx.x)
};

/// How much of the SM's L1/shared storage the kernel asks to be shared memory.
enum class Carveout {
  max_shared, ///< all of it (prefer_shared)
  fit,        ///< just enough for the kernel's full occupancy (fit_shared)
};

/// One tile per block. The carveout is a template argument only so that two variants that
/// differ in it are two kernels (the attribute belongs to the kernel).
template <int TileDim, int BlockRows, TileOrder Order, Carveout Shared>
__global__ void __launch_bounds__(kit::kWarpSize* BlockRows)
    padded_kernel(const float* in, float* out, int rows, int cols) {
  using Tile = PaddedTile<TileDim, BlockRows>;
  __shared__ float tile[Tile::kTileFloats];
  kit::Coord t{static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.x)};
  if constexpr (Order == TileOrder::bands) {
    t = banded_tile(static_cast<int>(blockIdx.x), kit::tiles_for(rows, TileDim),
                    kit::tiles_for(cols, TileDim));
  }
  Tile::move(tile, in, out, rows, cols, t.row * TileDim, t.col * TileDim);
}

/// Resident blocks a SM the persistent kernel is compiled for: holding the next tile in
/// registers takes it from 32 registers a thread to 48 (5 blocks of 256 threads a SM); at 6
/// blocks ptxas fits it in 40 without spilling, at 8 (32 registers) it spills.
constexpr int kPersistentBlocksPerSm = 6;

/// A persistent block: tiles blockIdx.x, blockIdx.x + gridDim.x, ... in banded order. The
/// next full tile's loads are issued before the current tile is written out, so they are in
/// flight while its stores drain. Every branch below is the same for the whole block, so
/// the barriers inside them are safe.
template <int TileDim, int BlockRows>
__global__ void __launch_bounds__(kit::kWarpSize* BlockRows,
                                  kit::min_blocks_per_sm(kit::kWarpSize* BlockRows,
                                                         kPersistentBlocksPerSm))
    padded_persistent_kernel(const float* in, float* out, int rows, int cols) {
  using Tile = PaddedTile<TileDim, BlockRows>;
  __shared__ float tile[Tile::kTileFloats];
  const int tiles_rows = kit::tiles_for(rows, TileDim);
  const int tiles_cols = kit::tiles_for(cols, TileDim);
  const int tiles = tiles_rows * tiles_cols;
  struct Place {
    int row0, col0;
    bool full;
  };
  auto place = [&](int t) {
    const kit::Coord i = banded_tile(t, tiles_rows, tiles_cols);
    const int row0 = i.row * TileDim, col0 = i.col * TileDim;
    return Place{row0, col0,
                 extent(row0, rows, TileDim) == TileDim && extent(col0, cols, TileDim) == TileDim};
  };

  float v[Tile::kPerThread]; // the next full tile, on its way from global memory
  int t = static_cast<int>(blockIdx.x);
  Place cur = place(t);
  if (cur.full) {
    Tile::load(v, in, cur.row0, cur.col0, cols);
  }
  for (; t < tiles; t += static_cast<int>(gridDim.x)) {
    if (cur.full) {
      Tile::stash(v, tile);
    } else {
      Tile::load_ragged(tile, in, cur.row0, cur.col0, extent(cur.row0, rows, TileDim),
                        extent(cur.col0, cols, TileDim), cols);
    }
    __syncthreads();
    const int t_next = t + static_cast<int>(gridDim.x);
    const Place next = t_next < tiles ? place(t_next) : Place{0, 0, false};
    if (next.full) {
      Tile::load(v, in, next.row0, next.col0, cols); // in flight during the writes below
    }
    if (cur.full) {
      Tile::write(out, tile, cur.row0, cur.col0, rows);
    } else {
      Tile::write_ragged(out, tile, cur.row0, cur.col0, extent(cur.row0, rows, TileDim),
                         extent(cur.col0, cols, TileDim), rows);
    }
    __syncthreads(); // the tile is read out before the next stash overwrites it
    cur = next;
  }
}

template <auto Kernel>
void set_carveout(Carveout shared, int block_threads) {
  if (shared == Carveout::fit) {
    fit_shared<Kernel>(block_threads);
  } else {
    prefer_shared<Kernel>();
  }
}

template <int TileDim, int BlockRows, TileOrder Order = TileOrder::rows,
          Carveout Shared = Carveout::max_shared>
void launch_padded(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  constexpr auto kernel = padded_kernel<TileDim, BlockRows, Order, Shared>;
  set_carveout<kernel>(Shared, kit::kWarpSize * BlockRows);
  const unsigned tiles_cols = static_cast<unsigned>(kit::tiles_for(cols, TileDim));
  const unsigned tiles_rows = static_cast<unsigned>(kit::tiles_for(rows, TileDim));
  const dim3 grid =
      Order == TileOrder::rows ? dim3(tiles_cols, tiles_rows) : dim3(tiles_cols * tiles_rows);
  kernel<<<grid, dim3(kit::kWarpSize, BlockRows), 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

/// Blocks of `Kernel` that fit on the whole device at once (one full wave).
template <auto Kernel>
int resident_blocks(int block_threads) {
  static const int blocks = [&] {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, block_threads, 0));
    return per_sm * sms;
  }();
  return blocks;
}

template <int TileDim, int BlockRows>
void launch_persistent(int blocks, const float* in, float* out, int rows, int cols,
                       cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  constexpr auto kernel = padded_persistent_kernel<TileDim, BlockRows>;
  constexpr int kThreads = kit::kWarpSize * BlockRows;
  prefer_shared<kernel>();
  const int tiles = kit::tiles_for(rows, TileDim) * kit::tiles_for(cols, TileDim);
  if (blocks <= 0) {
    blocks = resident_blocks<kernel>(kThreads);
  }
  blocks = blocks < tiles ? blocks : tiles;
  kernel<<<static_cast<unsigned>(blocks), dim3(kit::kWarpSize, BlockRows), 0, stream>>>(in, out,
                                                                                        rows, cols);
  CUDA_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------------------
// float4 in global memory, scalar accesses to a 32 x 33 tile.
//
// A tile row is 8 float4 ("quads"). Thread t takes quads q = t, t + Threads, ...; quad q
// is tile row quad_row(q) = q / 8, floats quad_col(q) = 4 (q % 8) .. + 3. A warp therefore
// covers 4 tile rows r0..r0+3 by 8 quads m = 0..7:
//   phase 1, the j-th of the 4 scalar stores: quad_store_coord(q, j) at r * 33 + 4 m + j
//            -> bank (r + 4 m + j) % 32: r takes 4 consecutive values and 4 m steps by 4:
//            32 banks, 1 wavefront.
//   phase 2, output row R (tile column R), quad m is tile rows 4 m .. 4 m + 3; the j-th of
//            the 4 scalar loads: quad_load_coord(q, j) at (4 m + j) * 33 + R
//            -> bank (4 m + j + R) % 32: R takes 4 consecutive values: 32 banks, 1 wavefront.
// Each thread keeps its quads of phase 1 in registers, so all of its 16-byte loads are in
// flight at once. Tiles that are ragged, or matrices whose rows are not 16-byte multiples,
// take a scalar path.
// ---------------------------------------------------------------------------------------
/// Floats of the vec4 variants' shared tile: 32 rows of 33.
constexpr int kQuadTileFloats = kTileDim * QuadLayout::kPitch;

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
  __shared__ float tile[kQuadTileFloats];
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
      v[k] = load4<Streaming>(in + kit::matrix_index(row0 + quad_row(q), col0 + quad_col(q), cols));
    }
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      const float f[kQuadFloats] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
      for (int j = 0; j < kQuadFloats; ++j) {
        const kit::Coord e = quad_store_coord(q, j);
        tile[QuadLayout{}(e.row, e.col)] = f[j]; // bank (r + 4 m + j) % 32
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads; // output row quad_row(q) of the tile (a tile column)
      float f[kQuadFloats];
#pragma unroll
      for (int j = 0; j < kQuadFloats; ++j) {
        const kit::Coord e = quad_load_coord(q, j);
        f[j] = tile[QuadLayout{}(e.row, e.col)]; // bank (4 m + j + r_out) % 32
      }
      const float4 w = make_float4(f[0], f[1], f[2], f[3]);
      store4<Streaming>(out + kit::matrix_index(col0 + quad_row(q), row0 + quad_col(q), rows), w);
    }
    return;
  }
  // Scalar path: element e of the tile is row e / 32, column e % 32 (a warp: one row).
  for (int e = t; e < kTileDim * kTileDim; e += Threads) {
    const int r = e / kTileDim, c = e % kTileDim;
    if (r < tile_rows && c < tile_cols) {
      tile[QuadLayout{}(r, c)] = in[kit::matrix_index(row0 + r, col0 + c, cols)];
    }
  }
  __syncthreads();
  for (int e = t; e < kTileDim * kTileDim; e += Threads) {
    const int r_out = e / kTileDim, c_out = e % kTileDim; // output (col0 + r_out, row0 + c_out)
    if (r_out < tile_cols && c_out < tile_rows) {
      out[kit::matrix_index(col0 + r_out, row0 + c_out, rows)] = tile[QuadLayout{}(c_out, r_out)];
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
      v[k] = load4<false>(in + kit::matrix_index(row0 + quad_row(q), col0 + quad_col(q), cols));
    }
#pragma unroll
    for (int k = 0; k < kQuadsPerThread; ++k) {
      const int q = t + k * Threads;
      store4<false>(out + kit::matrix_index(row0 + quad_row(q), col0 + quad_col(q), cols), v[k]);
    }
    return;
  }
  for (int e = t; e < kTileDim * kTileDim; e += Threads) {
    const int r = e / kTileDim, c = e % kTileDim;
    if (r < tile_rows && c < tile_cols) {
      out[kit::matrix_index(row0 + r, col0 + c, cols)] =
          in[kit::matrix_index(row0 + r, col0 + c, cols)];
    }
  }
}

template <auto Kernel, int Threads>
void launch_1d(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  prefer_shared<Kernel>();
  Kernel<<<kit::tile_grid(rows, cols, kTileDim), Threads, 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

// ---------------------------------------------------------------------------------------
// float2 in global memory, a 64 x 64 XOR-swizzled tile (SwizzledLayout, variant_layouts.hpp).
//
// 32 x 8 threads. Phase 1: warp y reads tile rows y, y + 8, ...: lane x the float2 of
// columns 2x, 2x + 1 (a warp: one 256-byte row), stored as one 8-byte shared store at
// swizzled_pair_offset (swapped in rows 32..63). Phase 2: warp y writes output rows y, y + 8,
// ... (tile columns): lane x reads tile (2x, R) and (2x + 1, R), two 4-byte loads, and
// stores them as the float2 of output columns 2x, 2x + 1. Every tile, full or ragged, makes
// the same shared accesses (lanes past the edge sit out); the global side takes float2 only
// for whole pairs of an even-sided matrix with 8-byte aligned pointers, floats otherwise.
// ---------------------------------------------------------------------------------------
constexpr int kSwizzledBlockRows = 8;
constexpr int kSwizzledThreads = kit::kWarpSize * kSwizzledBlockRows;

__device__ __forceinline__ bool aligned8(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 7u) == 0;
}

/// Phase 1's shared store: the pair of floats (2p, 2p + 1) of tile row r.
__device__ __forceinline__ void store_pair(float* tile, int r, int p, float2 v) {
  if (swizzled_pair_swapped(r)) {
    v = make_float2(v.y, v.x);
  }
  // One 8-byte store (2 wavefronts) on every path: left alone, the compiler splits it into
  // two 4-byte stores on the ragged path, and those would share banks (floats 2 apart).
  kit::st_shared(reinterpret_cast<float2*>(tile + swizzled_pair_offset(r, p)), v);
}

template <TileOrder Order>
__global__ void __launch_bounds__(kSwizzledThreads)
    swizzled_vec2_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ alignas(16) float tile[kSwizzledDim * kSwizzledDim];
  const int x = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  kit::Coord t{static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.x)};
  if constexpr (Order == TileOrder::bands) {
    t = banded_tile(static_cast<int>(blockIdx.x), kit::tiles_for(rows, kSwizzledDim),
                    kit::tiles_for(cols, kSwizzledDim));
  }
  const int row0 = t.row * kSwizzledDim;
  const int col0 = t.col * kSwizzledDim;
  const int tile_rows = extent(row0, rows, kSwizzledDim);
  const int tile_cols = extent(col0, cols, kSwizzledDim);
  const bool vector =
      rows % kPairFloats == 0 && cols % kPairFloats == 0 && aligned8(in) && aligned8(out);
  const int c = kPairFloats * x; // lane x's first column (phase 1) or output column (phase 2)

  if (vector && tile_rows == kSwizzledDim && tile_cols == kSwizzledDim) {
    constexpr int kPerThread = kSwizzledDim / kSwizzledBlockRows;
    float2 v[kPerThread];
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) { // every load in flight before the first store
      v[k] = *reinterpret_cast<const float2*>(
          in + kit::matrix_index(row0 + ty + k * kSwizzledBlockRows, col0 + c, cols));
    }
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      store_pair(tile, ty + k * kSwizzledBlockRows, x, v[k]);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int r_out = ty + k * kSwizzledBlockRows; // output row in the tile (tile column)
      const float2 w = make_float2(tile[SwizzledLayout{}(c, r_out)],      // 1 wavefront
                                   tile[SwizzledLayout{}(c + 1, r_out)]); // 1 wavefront
      *reinterpret_cast<float2*>(out + kit::matrix_index(col0 + r_out, row0 + c, rows)) = w;
    }
    return;
  }

  // Ragged tiles, odd sides, unaligned pointers: the same shared accesses, lanes past the
  // edge inactive, the global side float by float where a whole aligned pair is not there.
  for (int r = ty; r < tile_rows; r += kSwizzledBlockRows) {
    if (c < tile_cols) {
      const float* p = in + kit::matrix_index(row0 + r, col0 + c, cols);
      float2 v = make_float2(0.0f, 0.0f); // a missing second float is never read back
      if (vector && c + 1 < tile_cols) {
        v = *reinterpret_cast<const float2*>(p);
      } else {
        v.x = p[0];
        if (c + 1 < tile_cols) {
          v.y = p[1];
        }
      }
      store_pair(tile, r, x, v);
    }
  }
  __syncthreads();
  for (int r_out = ty; r_out < tile_cols; r_out += kSwizzledBlockRows) {
    if (c < tile_rows) {
      float* p = out + kit::matrix_index(col0 + r_out, row0 + c, rows);
      const float first = tile[SwizzledLayout{}(c, r_out)];
      if (c + 1 < tile_rows) {
        const float second = tile[SwizzledLayout{}(c + 1, r_out)];
        if (vector) {
          *reinterpret_cast<float2*>(p) = make_float2(first, second);
        } else {
          p[0] = first;
          p[1] = second;
        }
      } else {
        p[0] = first;
      }
    }
  }
}

template <TileOrder Order>
void launch_swizzled_vec2(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) {
    return;
  }
  constexpr auto kernel = swizzled_vec2_kernel<Order>;
  prefer_shared<kernel>();
  const unsigned tiles_cols = static_cast<unsigned>(kit::tiles_for(cols, kSwizzledDim));
  const unsigned tiles_rows = static_cast<unsigned>(kit::tiles_for(rows, kSwizzledDim));
  const dim3 grid =
      Order == TileOrder::rows ? dim3(tiles_cols, tiles_rows) : dim3(tiles_cols * tiles_rows);
  kernel<<<grid, dim3(kit::kWarpSize, kSwizzledBlockRows), 0, stream>>>(in, out, rows, cols);
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

void transpose_padded_64x8_bands(const float* in, float* out, int rows, int cols,
                                 cudaStream_t stream) {
  launch_padded<64, 8, TileOrder::bands>(in, out, rows, cols, stream);
}

void transpose_padded_64x8_bands_fit(const float* in, float* out, int rows, int cols,
                                     cudaStream_t stream) {
  launch_padded<64, 8, TileOrder::bands, Carveout::fit>(in, out, rows, cols, stream);
}

void transpose_padded_64x8_bands_persistent(const float* in, float* out, int rows, int cols,
                                            cudaStream_t stream) {
  launch_persistent<64, 8>(0, in, out, rows, cols, stream);
}

void transpose_padded_64x8_bands_persistent_grid(int blocks, const float* in, float* out, int rows,
                                                 int cols, cudaStream_t stream) {
  launch_persistent<64, 8>(blocks < 1 ? 1 : blocks, in, out, rows, cols, stream);
}

void transpose_swizzled_64x8_bands_vec2(const float* in, float* out, int rows, int cols,
                                        cudaStream_t stream) {
  launch_swizzled_vec2<TileOrder::bands>(in, out, rows, cols, stream);
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

} // namespace transpose_variants
