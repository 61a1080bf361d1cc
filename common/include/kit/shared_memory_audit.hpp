/// @file shared_memory_audit.hpp
/// @brief The shared-memory audit: what one block of each kernel a test program launches really
/// uses, for the check that each lesson's declared need (`gpu.shared_memory_per_block` in its
/// lesson.json) is true (`course-admin shared-memory-needs`).
///
/// With `KIT_SHARED_MEMORY_AUDIT=<file>` in its environment, a GPU test program (every program
/// linked with kit_testing) watches each kernel launch through CUPTI's callbacks: the runtime's
/// launches (`<<<...>>>`, cudaLaunchKernel, cudaLaunchKernelExC, cooperative launches), and the
/// driver's (cuLaunchKernel, cuLaunchKernelEx, cooperative launches) where the runtime's layer
/// could not read them. For each launch it reads the kernel's static shared memory
/// (cudaFuncGetAttributes' sharedSizeBytes; the driver's CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
/// and the launch's dynamic shared memory. When its tests end it appends to the file one block
/// of tab-separated lines:
///
///     # kit shared-memory audit 1
///     process     <pid> <device> <sm_NN> <opt-in shared memory per block>
///     kernel      <test> <static> <dynamic> <total> <launches> <origin> <symbol> <name>
///     unmeasured  <test> <origin> <symbol> <name> <why>
///     refused     <pid> <why>
///
/// - kernel: one line per test and kernel: `<test>` is `Suite.Name` (`-` outside a test); the
///   sizes are bytes, the most over the test's launches (`<total>`: static + dynamic);
///   `<symbol>` is the mangled name, `<name>` the readable one; `<origin>` is `program` for the
///   program's own kernels (its CUDA runtime knows the function) and `other` for those of a
///   library that brings its own runtime, such as cuBLAS, or of a launch through the driver
///   (such a library fits its kernels to the GPU itself).
/// - unmeasured: a kernel whose static size could not be read at any of its launches in that
///   test (the check counts a program's own as a failure).
/// - refused: CUPTI would not subscribe (another profiler attached, a kit built without CUPTI).
///
/// Appending lets a program that starts itself again (a test under ncu) leave its own block
/// beside the first.
///
/// Without the variable the audit does nothing at all: no subscription, no output.
#pragma once

namespace kit {

/// The variable that turns the audit on: its value is the file the audit appends to.
inline constexpr const char* kSharedMemoryAuditVariable = "KIT_SHARED_MEMORY_AUDIT";

/// Registers, once per program, the GoogleTest environment of the audit where
/// KIT_SHARED_MEMORY_AUDIT is set (it subscribes when the tests start and writes when they end);
/// does nothing elsewhere. Returns whether the audit is on. Every program linked with kit_testing
/// calls it at start-up (shared_memory_audit.cpp).
bool audit_shared_memory();

} // namespace kit
