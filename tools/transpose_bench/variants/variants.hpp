/// @file tools/transpose_bench/variants/variants.hpp
/// @brief Beyond lesson 05: padded transposes tuned toward cudaMemcpy's bandwidth, timed by
/// transpose-bench beside the lesson's kernels.
///
/// Lesson 05's transpose_padded moves a 32 x 32 tile with 32 x 8 threads, one float per
/// access. Once the column read is conflict-free, what is left between it and a
/// device-to-device cudaMemcpy is how the kernel feeds DRAM: bytes in flight per SM, how
/// long the runs of consecutive addresses are, and what the blocks do between tiles. These
/// variants try the usual levers, one at a time, and keep every shared access at its
/// width's ideal (variant_layouts.hpp holds their layouts; the CPU tests check them):
///   - work per thread: 32 x 4 threads (8 floats each) and 32 x 16 threads (2 each);
///   - tile shape: a 64 x 64 tile (pitch 65) with 32 x 8 threads (16 floats each);
///   - vector accesses: float4 loads and stores in global memory (4 floats per instruction)
///     with scalar accesses to a 32 x 33 tile, arranged so that each warp's shared accesses
///     still cover 32 banks (see variant_layouts.hpp); with and without streaming cache hints;
///   - occupancy: the variants ask for the largest shared-memory carveout, so that blocks
///     of 64 threads still fill an SM (32 tiles of 4.2 KiB); one asks for just enough;
///   - the order of the tiles, a persistent grid, float2 accesses to a swizzled 64 x 64 tile:
///     the variants built on transpose_padded_64x8 below, each with what it should change.
/// They take any matrix (the vector paths need even or multiple-of-4 sides and aligned
/// pointers; other tiles take a scalar path). `transpose-bench` times them beside the
/// lesson's kernels and cudaMemcpy.
#pragma once

#include <cuda_runtime_api.h>

namespace transpose_variants {

/// The signature every variant shares with lesson 05's kernels: reads the `rows` x `cols`
/// row-major floats at `in`, writes their transpose (or, for a copy, a copy) to `out`.
using MatrixOp = void (*)(const float* in, float* out, int rows, int cols, cudaStream_t stream);

/// 32 x 33 tile, 32 x 4 threads: 8 floats per thread per phase.
void transpose_padded_32x4(const float* in, float* out, int rows, int cols,
                           cudaStream_t stream = nullptr);

/// 32 x 33 tile, 32 x 16 threads: 2 floats per thread per phase.
void transpose_padded_32x16(const float* in, float* out, int rows, int cols,
                            cudaStream_t stream = nullptr);

/// 64 x 65 tile, 32 x 8 threads: 16 floats per thread per phase.
void transpose_padded_64x8(const float* in, float* out, int rows, int cols,
                           cudaStream_t stream = nullptr);

/// 32 x 33 tile, 64 threads, float4 in global memory: 4 float4 per thread per phase.
void transpose_padded_vec4_64t(const float* in, float* out, int rows, int cols,
                               cudaStream_t stream = nullptr);

/// 32 x 33 tile, 128 threads, float4 in global memory: 2 float4 per thread per phase.
void transpose_padded_vec4_128t(const float* in, float* out, int rows, int cols,
                                cudaStream_t stream = nullptr);

/// As transpose_padded_vec4_128t, with streaming (evict-first) loads and stores.
void transpose_padded_vec4_128t_cs(const float* in, float* out, int rows, int cols,
                                   cudaStream_t stream = nullptr);

// ---------------------------------------------------------------------------------------
// Built on transpose_padded_64x8, the best of the variants above (the measured table:
// docs/measurements/transpose.csv). _bands adds one lever to transpose_padded_64x8 and each
// of the other three one more to _bands, so that two rows of the table that are compared
// differ in one thing. A DRAM-bound kernel that already keeps 8 blocks x 16 KiB of loads in flight
// per SM is not short of requests; what these try is the shape of the traffic and the gaps between
// tiles.
// ---------------------------------------------------------------------------------------

/// transpose_padded_64x8 with the tiles taken in bands 32 tiles wide (banded_tile in
/// variant_layouts.hpp) instead of row by row. Prediction: in row order the ~1 000 blocks
/// resident at a time cover 8 whole tile rows: each input row is read in one long run, but
/// each output row is written in runs of 8 x 256 bytes, scattered over the whole output. In
/// bands they cover about 32 x 33 tiles: runs of about 8 KiB on both sides, so DRAM pages
/// and L2 write-backs see more consecutive addresses. If the write stream's locality is what
/// separates 0.91 from copy_vec4's 0.93, this row gains 1 to 2 points (0.92-0.93); if not,
/// it stays at 0.91 (the reads' shorter runs should cost nothing measurable).
void transpose_padded_64x8_bands(const float* in, float* out, int rows, int cols,
                                 cudaStream_t stream = nullptr);

/// transpose_padded_64x8_bands with the smallest shared-memory carveout that still holds
/// its 8 blocks a SM (about 164 KiB, not 228), the rest left to L1. The hypothesis it tests:
/// a global load holds L1 space while it is in flight, and with the largest carveout only
/// about 28 KiB of L1 remain for up to 128 KiB of loads the resident blocks ask for.
/// Prediction: if that caps the bytes in flight, this row gains 1 to 2 points over _bands;
/// if the in-flight data is not held there, it moves by noise only (the lesson's kernel,
/// with the driver's default carveout, and transpose_padded_32x4, with the largest, measure
/// alike: a hint that it is not the limit).
void transpose_padded_64x8_bands_fit(const float* in, float* out, int rows, int cols,
                                     cudaStream_t stream = nullptr);

/// transpose_padded_64x8_bands on a persistent grid: one block per resident slot (blocks a
/// SM x SMs), each taking every gridDim-th tile in banded order, and loading its next tile
/// into registers before it writes out the current one. Prediction: the 16 384 block
/// launches and their start-up gaps (the first load's latency with nothing else of the
/// block in flight) are gone, and each block has loads in flight while its stores drain.
/// The cost: the next tile's 16 floats stay in registers (40 a thread, held there by
/// __launch_bounds__), so 6 blocks fit a SM instead of 8: 96 KiB of loads in flight, still
/// more than DRAM needs. Expect 0 to 2 points over _bands: most of those gaps are already
/// filled by the other blocks of the SM.
void transpose_padded_64x8_bands_persistent(const float* in, float* out, int rows, int cols,
                                            cudaStream_t stream = nullptr);

/// transpose_padded_64x8_bands_persistent with a grid of `blocks` blocks (at least 1): the
/// tests take a few so that every block moves many tiles.
void transpose_padded_64x8_bands_persistent_grid(int blocks, const float* in, float* out, int rows,
                                                 int cols, cudaStream_t stream = nullptr);

/// transpose_padded_64x8_bands with float2 global loads and stores (a warp moves one
/// 256-byte tile row per instruction: 8 per thread per phase instead of 16) through a
/// 64 x 64 XOR-swizzled tile (SwizzledLayout in variant_layouts.hpp: 8-byte stores at the ideal
/// 2 wavefronts, column reads at 1; 16 KiB instead of 16.25). Prediction: DRAM sees the
/// same sectors in the same order, so within 1 point of _bands: half the load and store
/// instructions relieve an issue and LSU pressure that a DRAM-bound kernel does not have.
/// A gain here would say the instruction count mattered after all.
void transpose_swizzled_64x8_bands_vec2(const float* in, float* out, int rows, int cols,
                                        cudaStream_t stream = nullptr);

/// A copy with float4 loads and stores (128 threads, 2 float4 per thread): what the copy
/// reaches with wide accesses.
void copy_vec4(const float* in, float* out, int rows, int cols, cudaStream_t stream = nullptr);

/// One entry of the list the tests loop over.
struct Variant {
  const char* name; ///< The function's name, for tables and messages.
  MatrixOp op;      ///< The function.
  bool transposes;  ///< True for a transpose, false for a copy.
};

/// Every variant of this file, in the order of transpose-bench's table.
inline constexpr Variant kVariants[] = {
    {"transpose_padded_32x4", transpose_padded_32x4, true},
    {"transpose_padded_32x16", transpose_padded_32x16, true},
    {"transpose_padded_64x8", transpose_padded_64x8, true},
    {"transpose_padded_vec4_64t", transpose_padded_vec4_64t, true},
    {"transpose_padded_vec4_128t", transpose_padded_vec4_128t, true},
    {"transpose_padded_vec4_128t_cs", transpose_padded_vec4_128t_cs, true},
    {"transpose_padded_64x8_bands", transpose_padded_64x8_bands, true},
    {"transpose_padded_64x8_bands_fit", transpose_padded_64x8_bands_fit, true},
    {"transpose_padded_64x8_bands_persistent", transpose_padded_64x8_bands_persistent, true},
    {"transpose_swizzled_64x8_bands_vec2", transpose_swizzled_64x8_bands_vec2, true},
    {"copy_vec4", copy_vec4, false},
};

} // namespace transpose_variants
