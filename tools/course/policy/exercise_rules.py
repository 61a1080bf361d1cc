"""The lists behind the exercise-file policy (exercise_policy.py): what an exercise file may
include and name, course-wide and per lesson, and the names it may never use.

An exercise needs declarations in its lesson's namespace: constants, layout types, functions,
and in lessons 05 and 06 kernels, in lesson 10 host code around the CUDA runtime. It never
needs process control, files, the environment, threads, the test framework, or the C
library's system calls. Everything an exercise may name from outside its own file is listed
here or declared by the course's own headers that it may include; anything else is refused.

Adding a lesson: its starter and reference solution must pass the policy (a test checks every
lesson). If the solution needs a standard or CUDA name, or a header, that is not listed, add it
to the lesson's manifest (lessons/NN_topic/lesson.json, `policy`: headers, std, names), never to
the course-wide lists.
"""

from __future__ import annotations

import re
from typing import Dict, FrozenSet, Tuple

# ------------------------------------------------------------------------------------------
# Headers an exercise file may include
# ------------------------------------------------------------------------------------------

#: The lesson's own headers (found on the lesson's include path), by the names the starters use.
LESSON_HEADERS = ("demo.hpp", "exercise.hpp", "internal.cuh")

#: The kit's headers an exercise may include: the model, layouts, matrices, device buffers and
#: the error check. Not the testing, measurement or counter headers (GoogleTest, files, CUPTI).
KIT_HEADERS = ("kit/bank_model.hpp", "kit/buffer.hpp", "kit/config.hpp", "kit/cuda_check.hpp",
               "kit/layout.hpp", "kit/ldmatrix.hpp", "kit/matrix.hpp", "kit/pattern.hpp",
               "kit/trace.hpp", "kit/shared_access.cuh")

#: Standard and CUDA headers every lesson may include.
SYSTEM_HEADERS = ("algorithm", "array", "cmath", "cstddef", "cstdint", "limits", "numeric",
                  "type_traits", "utility", "cuda_fp16.h", "cuda_runtime.h")

# ------------------------------------------------------------------------------------------
# Names
# ------------------------------------------------------------------------------------------

#: CUDA's keywords, built-in variables and intrinsics a kernel of the course uses, and the
#: compiler's reserved names a lesson needs (every other name that starts with `__` or `_`
#: and a capital letter is refused).
CUDA_NAMES = frozenset({
    "__global__", "__device__", "__host__", "__shared__", "__constant__", "__forceinline__",
    "__noinline__", "__launch_bounds__", "__restrict__", "__grid_constant__",
    "__syncthreads", "__syncwarp", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
    "dim3", "cudaStream_t", "cudaError_t", "cudaSuccess",
    "__half", "__half2", "__float2half", "__half2float", "__floats2half2_rn", "__halves2half2",
    "__lows2half2", "__highs2half2", "__low2half", "__high2half", "__low2float",
    "__high2float", "__float22half2_rn", "__half22float2", "__hadd", "__hmul", "__hadd2",
    "__hmul2", "__hfma", "__hfma2",
    "float2", "float4", "int2", "int4", "make_float2", "make_float4", "make_int2", "make_int4",
})

#: Names of the C library (and of the C++ library in the global namespace) an exercise may
#: use: arithmetic, and a few that read nothing but the clock.
C_NAMES = frozenset({
    "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "nullptr_t",
    "abs", "labs", "llabs", "div", "ldiv", "index", "rindex", "time", "clock",
    # <math.h>: every function of the C math library (arithmetic only).
    "acos", "acosf", "acosh", "asin", "asinf", "asinh", "atan", "atan2", "atan2f", "atanf",
    "atanh", "cbrt", "ceil", "ceilf", "copysign", "cos", "cosf", "cosh", "erf", "erfc", "exp",
    "exp2", "exp2f", "expf", "expm1", "fabs", "fabsf", "fdim", "floor", "floorf", "fma",
    "fmaf", "fmax", "fmaxf", "fmin", "fminf", "fmod", "fmodf", "frexp", "hypot", "ilogb",
    "isfinite", "isinf", "isnan", "j0", "j1", "jn", "ldexp", "lgamma", "llrint", "llround",
    "log", "log10", "log1p", "log2", "log2f", "logb", "logf", "lrint", "lround", "modf", "nan",
    "nearbyint", "nextafter", "pow", "powf", "remainder", "remquo", "rint", "round", "roundf",
    "scalbn", "signbit", "sin", "sinf", "sinh", "sqrt", "sqrtf", "tan", "tanf", "tanh",
    "tgamma", "trunc", "truncf", "y0", "y1", "yn",
    # <limits.h>, <float.h>, <stdint.h> limits.
    "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX", "LONG_MIN", "FLT_MAX", "FLT_MIN",
    "FLT_EPSILON", "DBL_MAX", "DBL_MIN", "DBL_EPSILON", "INT32_MAX", "INT32_MIN", "UINT32_MAX",
    "NULL",
})

#: Names of the C++ library an exercise may write as `std::NAME` (and, for a template, its
#: members after it). `std` alone may not be reopened, aliased or brought in with `using`.
STD_NAMES = frozenset({
    "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
    "uint32_t", "uint64_t", "nullptr_t",
    "min", "max", "minmax", "clamp", "abs", "swap", "gcd", "lcm", "array", "pair", "make_pair",
    "tuple", "get", "initializer_list", "numeric_limits", "integral_constant", "true_type",
    "false_type", "is_same", "is_same_v", "enable_if", "enable_if_t", "conditional",
    "conditional_t", "decay_t", "remove_cv_t", "remove_reference_t", "is_integral_v",
    "is_floating_point_v", "is_arithmetic_v", "declval", "move", "forward",
    # <cmath>
    "sqrt", "pow", "exp", "exp2", "log", "log2", "log10", "floor", "ceil", "round", "lround",
    "trunc", "fabs", "fmod", "fma", "fmin", "fmax", "hypot", "sin", "cos", "tan", "isfinite",
    "isnan", "isinf",
})

#: The kit's names every lesson's exercise may use: its constants and its vocabulary of
#: layouts (the parse resolves a name to its declaration, so these are qualified; a type brings
#: its members). A lesson's manifest lists the others it needs (`policy.kit`: a shared tile, a
#: device buffer). Never the model's functions (bank_of, wavefronts, analyze, a trace's
#: expected counts ...): they compute the answers an exercise asks for.
KIT_NAMES: Tuple[str, ...] = ("kit::kWarpSize", "kit::kNumBanks", "kit::kBankBytes",
                              "kit::kWavefrontBytes", "kit::kFullMask", "kit::Pitched",
                              "kit::Swizzle", "kit::Swizzled", "kit::cosize", "kit::Coord",
                              "kit::matrix_index")

# ------------------------------------------------------------------------------------------
# Names an exercise may never use or declare, by what they are for. They are refused even
# where the name would also be the student's own (a variable called `system`).
# ------------------------------------------------------------------------------------------

DENIED: Dict[str, FrozenSet[str]] = {
    "process control": frozenset({
        "exit", "_exit", "_Exit", "quick_exit", "abort", "terminate", "atexit", "at_quick_exit",
        "set_terminate", "set_unexpected", "get_terminate", "on_exit", "raise", "kill",
        "killpg", "setjmp", "longjmp", "sigsetjmp", "siglongjmp", "syscall", "ptrace", "prctl",
        "exit_group", "pause", "sleep", "usleep", "nanosleep", "alarm"}),
    "signal handling": frozenset({
        "signal", "sigaction", "sigprocmask", "sigemptyset", "sigaddset", "sighandler_t",
        "SIGABRT", "SIGSEGV", "SIGTERM", "SIGKILL", "SIGINT", "SIGALRM"}),
    "new processes and threads": frozenset({
        "fork", "vfork", "clone", "clone3", "execl", "execle", "execlp", "execv", "execve",
        "execvp", "execvpe", "fexecve", "system", "popen", "pclose", "posix_spawn",
        "posix_spawnp", "thread", "jthread", "async", "pthread_create", "pthread_atfork",
        "daemon", "setsid", "wait", "waitpid"}),
    "files, the terminal and the environment": frozenset({
        "getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv", "environ",
        "__environ", "fopen", "freopen", "fdopen", "fclose", "fwrite", "fputs", "fputc",
        "fprintf", "printf", "puts", "putchar", "vprintf", "perror", "open", "openat", "creat",
        "close", "read", "write", "pread", "pwrite", "lseek", "dup", "dup2", "pipe", "remove",
        "rename", "unlink", "unlinkat", "rmdir", "mkdir", "chdir", "chmod", "chown", "truncate",
        "ftruncate", "symlink", "link", "stat", "lstat", "fstat", "opendir", "readdir",
        "tmpfile", "tmpnam", "mkstemp", "ofstream", "ifstream", "fstream", "basic_ofstream",
        "basic_ifstream", "basic_fstream", "filebuf", "basic_filebuf", "filesystem", "cout",
        "cerr", "clog", "cin", "stdout", "stderr", "stdin", "FILE", "sync", "fsync"}),
    "dynamic loading and memory mapping": frozenset({
        "dlopen", "dlsym", "dlvsym", "dlclose", "dladdr", "mmap", "munmap", "mprotect",
        "mremap", "madvise"}),
    "the test framework": frozenset({
        "testing", "gtest", "TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P",
        "TYPED_TEST_SUITE", "INSTANTIATE_TEST_SUITE_P", "FAIL", "SUCCEED", "ADD_FAILURE",
        "ADD_FAILURE_AT", "GTEST_SKIP", "SCOPED_TRACE", "RUN_ALL_TESTS", "InitGoogleTest",
        "AddGlobalTestEnvironment", "Environment", "UnitTest", "TestEventListener",
        "TestEventListeners", "EmptyTestEventListener", "main"}),
    # The CPU run of a kernel (kit/cpu_runtime.hpp) records what the kernel does; an exercise
    # reaches it only through kit::SharedTile, KIT_SHARED and the CUDA names, never directly.
    "the kit's CPU run": frozenset({"cpu_runtime", "Runtime"}),
    "CUDA host callbacks and device state": frozenset({
        "cudaLaunchHostFunc", "cudaStreamAddCallback", "cudaDeviceReset", "cudaSetDevice",
        "cudaProfilerStart", "cudaProfilerStop"}),
}

#: Name patterns refused with the rule "the test framework": GoogleTest's and the kit's test
#: macros, and the compiler's built-ins.
DENIED_PATTERNS: Tuple[Tuple[str, "re.Pattern[str]"], ...] = (
    ("the test framework", re.compile(r"^(EXPECT|ASSERT|GTEST|GMOCK|KIT_EXPECT|KIT_ASSERT|"
                                      r"REQUIRE_GPU|KIT_REQUIRE)(_\w*)?$")),
    ("compiler built-ins", re.compile(r"^__builtin\w*$|^__sync_\w*$|^__atomic_\w*$")),
)


def denied_rule(name: str) -> str:
    """The rule that refuses `name` wherever it stands, or ''."""
    for rule, names in DENIED.items():
        if name in names:
            return rule
    for rule, pattern in DENIED_PATTERNS:
        if pattern.match(name):
            return rule
    return ""
