# Chooses the CUDA architectures before project() enables CUDA, and whether GPU test programs
# are built (COURSE_BUILD_GPU_TESTS).
#
# - CMAKE_CUDA_ARCHITECTURES or CUDAARCHS given: used as is (the `ci` preset names sm_75, sm_86,
#   sm_90 and sm_120: CI compiles every kernel for the GPUs instructors have, oldest to newest).
# - A GPU visible to nvidia-smi: its own architecture(s), e.g. 90 on an H100.
# - No GPU (CI, a laptop without NVIDIA hardware): COURSE_FALLBACK_CUDA_ARCHITECTURES, one
#   architecture. Such a machine runs no device code, so compiling the kernels once checks
#   them; every further architecture would only lengthen the build. (CMake's `native` fails
#   without a GPU, and CMake 3.25's `all` tables name architectures nvcc 13 rejects.) A GPU
#   added later needs a fresh configure; its tests say so until then.
set(COURSE_FALLBACK_CUDA_ARCHITECTURES "90"
    CACHE STRING "CUDA architectures to build for when no GPU is visible at configure time")

# Find nvcc in the toolkit's usual home when it is not on PATH.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(_course_nvcc nvcc)
  if(NOT _course_nvcc AND EXISTS "/usr/local/cuda/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "/usr/local/cuda/bin/nvcc" CACHE FILEPATH "CUDA compiler")
  endif()
endif()

# The compute capabilities of the GPUs nvidia-smi sees (none on a machine without a driver).
set(_course_archs "")
find_program(_course_nvidia_smi nvidia-smi)
if(_course_nvidia_smi)
  execute_process(COMMAND "${_course_nvidia_smi}" --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE _course_caps RESULT_VARIABLE _course_rc ERROR_QUIET
                  TIMEOUT 20)
  if(_course_rc EQUAL 0)
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _course_caps "${_course_caps}")
    foreach(_cap IN LISTS _course_caps)
      string(REPLACE "." "" _arch "${_cap}")
      list(APPEND _course_archs "${_arch}")
    endforeach()
    list(REMOVE_DUPLICATES _course_archs)
  endif()
endif()
if(_course_archs)
  set(COURSE_GPU_VISIBLE TRUE)
else()
  set(COURSE_GPU_VISIBLE FALSE)
endif()

if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  if(_course_archs)
    message(STATUS "CUDA architectures: ${_course_archs} (the GPU on this machine)")
    set(CMAKE_CUDA_ARCHITECTURES "${_course_archs}" CACHE STRING "CUDA architectures")
  else()
    message(STATUS "CUDA architectures: ${COURSE_FALLBACK_CUDA_ARCHITECTURES} "
                   "(no GPU visible: COURSE_FALLBACK_CUDA_ARCHITECTURES)")
    set(CMAKE_CUDA_ARCHITECTURES "${COURSE_FALLBACK_CUDA_ARCHITECTURES}"
        CACHE STRING "CUDA architectures")
  endif()
endif()

# GPU test programs: built where they can run. Without a GPU they are registered all the same
# and report Skipped, with the reason, so the CPU verdict and the first build stay short.
set(COURSE_GPU_TESTS "AUTO" CACHE STRING
    "Build the GPU test programs: ON, OFF, or AUTO (when nvidia-smi sees a GPU at configure time)")
set_property(CACHE COURSE_GPU_TESTS PROPERTY STRINGS AUTO ON OFF)
if(COURSE_GPU_TESTS STREQUAL "AUTO")
  set(COURSE_BUILD_GPU_TESTS ${COURSE_GPU_VISIBLE})
elseif(COURSE_GPU_TESTS)
  set(COURSE_BUILD_GPU_TESTS TRUE)
else()
  set(COURSE_BUILD_GPU_TESTS FALSE)
endif()
if(NOT COURSE_BUILD_GPU_TESTS)
  message(STATUS "GPU test programs: not built (COURSE_GPU_TESTS=${COURSE_GPU_TESTS}, GPU "
                 "visible: ${COURSE_GPU_VISIBLE}); their tests report Skipped")
endif()
