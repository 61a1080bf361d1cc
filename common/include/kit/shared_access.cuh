/// @file shared_access.cuh
/// @brief Shared-memory loads and stores that compile to exactly one instruction each.
///
/// The compiler is free to fuse neighbouring shared accesses into wider ones (two 4-byte loads
/// of `s[2*t]` and `s[2*t+1]` into one 8-byte load; four coefficients into one 16-byte load),
/// to move a load into the branch that uses it, or to drop it. Each of those changes the
/// requests a warp issues and the bank rules that apply to them (see lesson 06 for the wider
/// accesses) — and quietly "fixes" or hides the conflict a lesson is about. Where a lesson's
/// point is the cost of one particular access, it goes through these functions: one volatile
/// PTX instruction per call, issued where it is written, as the trace says.
#pragma once

#include <cuda_fp16.h>

namespace kit {

/// The 32-bit shared-window address of a pointer into shared memory.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// One 4-byte shared load (LDS).
__device__ __forceinline__ float ld_shared(const float* p) {
  float v;
  asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(v) : "r"(shared_address(p)) : "memory");
  return v;
}

/// One 8-byte shared load (LDS.64); `p` must be 8-byte aligned.
__device__ __forceinline__ float2 ld_shared(const float2* p) {
  float2 v;
  asm volatile("ld.volatile.shared.v2.f32 {%0, %1}, [%2];"
               : "=f"(v.x), "=f"(v.y)
               : "r"(shared_address(p))
               : "memory");
  return v;
}

/// One 16-byte shared load (LDS.128); `p` must be 16-byte aligned.
__device__ __forceinline__ float4 ld_shared(const float4* p) {
  float4 v;
  asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(shared_address(p))
               : "memory");
  return v;
}

/// One 2-byte shared load (LDS.U16).
__device__ __forceinline__ __half ld_shared(const __half* p) {
  unsigned short bits;
  asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(bits) : "r"(shared_address(p)) : "memory");
  return __ushort_as_half(bits);
}

/// One 4-byte shared store (STS).
__device__ __forceinline__ void st_shared(float* p, float v) {
  asm volatile("st.volatile.shared.f32 [%0], %1;" ::"r"(shared_address(p)), "f"(v) : "memory");
}

/// One 8-byte shared store (STS.64); `p` must be 8-byte aligned.
__device__ __forceinline__ void st_shared(float2* p, float2 v) {
  asm volatile("st.volatile.shared.v2.f32 [%0], {%1, %2};" ::"r"(shared_address(p)), "f"(v.x),
               "f"(v.y)
               : "memory");
}

/// One 16-byte shared store (STS.128); `p` must be 16-byte aligned.
__device__ __forceinline__ void st_shared(float4* p, float4 v) {
  asm volatile("st.volatile.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(shared_address(p)),
               "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
}

/// One 2-byte shared store (STS.U16).
__device__ __forceinline__ void st_shared(__half* p, __half v) {
  asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(shared_address(p)), "h"(__half_as_ushort(v))
               : "memory");
}

/// One ldmatrix.sync.aligned.m8n8.x1.shared.b16 (LDSM): lanes 0-7 give the 16-byte rows of
/// one 8 x 8 matrix; lane l receives row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1.
__device__ __forceinline__ void ldmatrix_x1(const __half* row, unsigned (&r)[1]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
               : "=r"(r[0])
               : "r"(shared_address(row))
               : "memory");
}

/// One ldmatrix .x2: lanes 0-15 give the rows of two matrices, register i holds matrix i.
__device__ __forceinline__ void ldmatrix_x2(const __half* row, unsigned (&r)[2]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(shared_address(row))
               : "memory");
}

/// One ldmatrix .x4: lanes 8 i to 8 i + 7 give the rows of matrix i, register i holds it.
__device__ __forceinline__ void ldmatrix_x4(const __half* row, unsigned (&r)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row))
               : "memory");
}

} // namespace kit
