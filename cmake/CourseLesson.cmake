# course_add_lesson(<NN> <topic>): one lesson, built once per tree.
#
# For lesson `03_stride_32` and each enabled tree it makes
#   - lesson03_<tree>_headers: the lesson's headers (interface only). The student tree is
#     lessons/03_stride_32; the solution tree is solutions/03_stride_32 (the files a student
#     writes) in front of lessons/03_stride_32 (every other file: the demos, shared).
#   - lesson03_<tree>: a static library of the lesson's CUDA sources in that tree.
#   - lesson03_<tree>_cpu: one test program of every tests/03_stride_32/cpu_*_test.cpp,
#     compiled by the host compiler alone against the headers: no nvcc, no CUDA library, so
#     the CPU verdict after an edit takes seconds.
#   - lesson03_<tree>_gpu: one test program of every gpu_* and perf_* test file, linked with
#     the lesson's library, the lesson's twins and the kit (its files compile as
#     lesson03_<tree>_gpu_objects, beside the library's nvcc). Only where COURSE_BUILD_GPU_TESTS
#     (a GPU at configure time, or COURSE_GPU_TESTS=ON): elsewhere its tests are registered all
#     the same and report Skipped with the reason.
# and, where tests/03_stride_32 has CUDA sources that are not test files (twin.cu: the
# conflict-free twins the tests time the student's kernel against, which are the exercise's
# answer and so stay out of lessons/), lesson03_twin: one library of them for every tree;
# and the targets `lesson03-cpu` (the CPU test programs of every tree) and `lesson03`
# (everything of the lesson), so a lesson builds, and fails, on its own. The files these targets
# make (its libraries and test programs, of every tree) are listed in the build's
# course/lesson-files.json: the grading build removes a lesson's before building it.
#
# The correctness tests (gpu_* files whose name does not hold `counters`) also run under
# compute-sanitizer, each file once per tool of COURSE_SANITIZER_TOOLS, in the small mode:
# `<tree>/lesson03/memcheck/<file>`, guards (labels gpu;sanitize;<tool>) judged on the
# sanitizer's findings alone (tools/reliability/sanitizer_test.py).
#
# One test source, one program per tree: never two copies. Every TEST / TEST_F of a file is
# one ctest test, `<tree>/lesson03/<Suite>.<Name>`, labelled from the file's name
# <kind>_<role>_<what>_test.cpp: <kind> is cpu, gpu or perf (perf tests are GPU timing tests:
# labels gpu;perf) and <role> is exercise (must fail on the starter, pass on the solution) or
# guard (must pass on both); a cpu file named *_kernel_test.cpp runs the lesson's kernels on the
# CPU and adds the label cpu-kernel: such files make a program of their own,
# lesson03_<tree>_cpu_kernel, with tests/03_stride_32/kernels_on_cpu.cpp (the lesson's kernels
# compiled by the host compiler), so a kernel the host compiler refuses costs only those tests.
# Every test also carries the lesson label (lesson03) and the tree label (student or solution).
# Tests of a file whose name holds `counters` read the hardware counters (label counters); no
# other GPU test file may.
#
# Sharing the GPU (ctest's resource allocation, with the spec file this build writes:
# COURSE_GPU_TEST_SLOTS slots on one GPU): a timing or counter test takes every slot (and the
# `gpu` resource lock), so it runs alone, never beside another GPU test; a GPU correctness test
# or a sanitizer run takes one slot, so `ctest -j` runs several of them side by side (and CPU
# tests beside anything).

set(COURSE_CPU_TEST_TIMEOUT 60 CACHE STRING "ctest TIMEOUT (seconds) of a CPU test")
set(COURSE_GPU_TEST_TIMEOUT 120 CACHE STRING "ctest TIMEOUT (seconds) of a GPU test")
set(COURSE_PERF_TEST_TIMEOUT 300 CACHE STRING "ctest TIMEOUT (seconds) of a timing test")
set(COURSE_SANITIZER_TEST_TIMEOUT 300 CACHE STRING
    "ctest TIMEOUT (seconds) of a correctness test file under one compute-sanitizer tool")
# The compute-sanitizer tools every correctness test file of a lesson also runs under.
set(COURSE_SANITIZER_TOOLS memcheck racecheck CACHE STRING
    "compute-sanitizer tools of the suites' sanitizer tests")
# GPU correctness tests (and sanitizer runs) that may share the GPU at once under `ctest -j`
# (each is its own process with its own CUDA context: a few hundred MiB of GPU memory).
set(COURSE_GPU_TEST_SLOTS 4 CACHE STRING
    "GPU correctness tests that may run at once on the GPU (timing and counter tests run alone)")
if(NOT COURSE_GPU_TEST_SLOTS MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "COURSE_GPU_TEST_SLOTS must be a whole number of at least 1")
endif()
# ctest reads the build's resource spec file (CTEST_RESOURCE_SPEC_FILE, set at the top level).
set(COURSE_GPU_RESOURCES "${CMAKE_BINARY_DIR}/course/gpu-resources.json")
file(CONFIGURE OUTPUT "${COURSE_GPU_RESOURCES}" CONTENT
     "{\"version\": {\"major\": 1, \"minor\": 0}, \"local\": [{\"gpus\": [{\"id\": \"0\", \"slots\": ${COURSE_GPU_TEST_SLOTS}}]}]}\n")
# The properties of a GPU test that runs alone (timing, counters) and of one that shares the GPU.
set(COURSE_GPU_ALONE RESOURCE_LOCK gpu RESOURCE_GROUPS "gpus:${COURSE_GPU_TEST_SLOTS}")
set(COURSE_GPU_SHARED RESOURCE_GROUPS "gpus:1")

# The test programs' C++ at -Og: an edit of an exercise file recompiles its lesson's test
# program, and -Og compiles lesson 03's CPU test program in 1.17 s where -O1 takes 1.56 s, -O0
# 1.62 s and -O3 more still (one core). -Og still optimises: lesson 05's CPU emulation of a
# transpose over every awkward shape runs 3.1 s (the whole program, one process) where -O1 runs
# it in 1.6 s and -O0 in 8-12 s. CUDA code (the kernels, the GPU test files' device code) keeps
# the build's level; the lessons' kernels for their CPU run keep -O1 (below).
set(COURSE_TEST_CXX_OPTIONS "$<$<COMPILE_LANGUAGE:CXX>:-Og>")

# GoogleTest's header, precompiled once and reused by every test program (it is most of the
# time a test file takes to compile), with the test programs' options (a precompiled header
# serves only a compile with the same optimisation level).
file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/course/gtest_pch.cpp"
     CONTENT "// GoogleTest's precompiled header.\n")
# _course_gtest_pch(<target> <option>...): GoogleTest's header precompiled with these options.
function(_course_gtest_pch target)
  add_library(${target} OBJECT "${CMAKE_BINARY_DIR}/course/gtest_pch.cpp")
  target_link_libraries(${target} PRIVATE GTest::gtest)
  target_compile_options(${target} PRIVATE ${ARGN})
  target_precompile_headers(${target} PRIVATE <gtest/gtest.h>)
endfunction()
_course_gtest_pch(course_gtest_pch ${COURSE_TEST_CXX_OPTIONS})

# course_optimise_test_program(<program>): a test program whose C++ runs long enough to pay for
# -O1 over the test programs' -Og (a lesson's tests/NN_topic/lesson.cmake says so), with
# GoogleTest's header precompiled once more at that level for such programs.
function(course_optimise_test_program program)
  set(o1 "$<$<COMPILE_LANGUAGE:CXX>:-O1>")
  if(NOT TARGET course_gtest_pch_o1)
    _course_gtest_pch(course_gtest_pch_o1 ${o1})
  endif()
  target_compile_options(${program} PRIVATE ${o1})
  set_target_properties(${program} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM course_gtest_pch_o1)
endfunction()

# course_test_reads(<tests> <file>...): the tests whose names start with <tests>
# ("student/lesson09/") read these files while they run, besides their programs and the
# libraries those load. The grader's sandbox shows a test these and nothing else of the course or
# its build (tools/course/grading/sandbox.py); <build>/course/build.json lists them (test_reads).
function(course_test_reads tests)
  get_property(known GLOBAL PROPERTY COURSE_TEST_READS)
  if(NOT "${tests}" IN_LIST known)
    set_property(GLOBAL APPEND PROPERTY COURSE_TEST_READS "${tests}")
  endif()
  set_property(GLOBAL APPEND PROPERTY "COURSE_TEST_READS ${tests}" ${ARGN})
endfunction()

# A GPU test whose program this build does not make (no GPU at configure time): it reports
# Skipped, with the reason, in GoogleTest's words (cmake/CourseSkip.cmake).
function(_course_add_skipped_gpu_test name)
  string(CONCAT reason "no GPU when this build was configured: its GPU test programs are not "
                       "built; on a machine with an NVIDIA GPU, configure again (or pass "
                       "-DCOURSE_GPU_TESTS=ON)")
  add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND} "-DTEST=${name}" "-DREASON=${reason}"
                                  -P "${PROJECT_SOURCE_DIR}/cmake/CourseSkip.cmake")
  set_tests_properties("${name}" PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
endfunction()

# Records that `target` is one of the lesson's: its file is one the lesson's build makes
# (tools/course/CMakeLists.txt lists them all, per lesson, in course/lesson-files.json; the
# grading build removes them before it builds, so a lesson that does not build leaves none of an
# earlier build's programs to run).
function(_course_lesson_makes lesson target)
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSON_FILES_${lesson} "$<TARGET_FILE:${target}>")
endfunction()

# The `<Suite>.<Name>` of every TEST and TEST_F that opens a line of `source`.
function(_course_test_names source out_var)
  file(READ "${source}" text)
  set(ws "[ \t\r\n]*")
  set(id "[A-Za-z_][A-Za-z0-9_]*")
  string(REGEX MATCHALL "(^|\n)[ \t]*TEST(_F)?${ws}\\(${ws}${id}${ws},${ws}${id}${ws}\\)" found
         "${text}")
  set(names "")
  foreach(match IN LISTS found)
    string(REGEX REPLACE "^[ \t\r\n]*TEST(_F)?${ws}\\(${ws}(${id})${ws},${ws}(${id})${ws}\\)$"
                         "\\2.\\3" name "${match}")
    # GoogleTest runs a DISABLED_ test only when asked (--gtest_also_run_disabled_tests): such a
    # test is a helper another test runs (kit/testing_cpu_run.hpp), not a test of ctest's.
    if(NOT name MATCHES "(^|\\.)DISABLED_")
      list(APPEND names "${name}")
    endif()
  endforeach()
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()

# The sanitizer tests of one correctness test file (see the top of this file).
function(_course_add_sanitizer_tests prefix stem exe names labels)
  list(JOIN names ":" filter)
  list(REMOVE_ITEM labels exercise)
  foreach(tool IN LISTS COURSE_SANITIZER_TOOLS)
    set(test "${prefix}${tool}/${stem}")
    # Skips are the wrapper's exit status 77 (the program's own output, printed with a
    # finding, may hold GoogleTest's skip lines).
    if(COURSE_BUILD_GPU_TESTS)
      add_test(NAME "${test}"
               COMMAND Python3::Interpreter
                       "${PROJECT_SOURCE_DIR}/tools/reliability/sanitizer_test.py" --tool ${tool}
                       --name "${test}" -- $<TARGET_FILE:${exe}> "--gtest_filter=${filter}")
      set_tests_properties("${test}" PROPERTIES SKIP_RETURN_CODE 77
                           ENVIRONMENT "${COURSE_PYTHON_ENV}")
    else()
      _course_add_skipped_gpu_test("${test}")
    endif()
    set_tests_properties("${test}" PROPERTIES
      LABELS "${labels};guard;sanitize;${tool}"
      TIMEOUT ${COURSE_SANITIZER_TEST_TIMEOUT}
      ${COURSE_GPU_SHARED})
  endforeach()
endfunction()

# Registers the tests of one folder against one tree of a lesson (or, for the kit's own tests,
# against the kit: course_add_test_folder(kit kit <folder> HEADERS kit_model LINK kit)).
# course_add_test_folder(<lesson> <tree> <folder> HEADERS <target> LINK <target>...
#                        [EXTRA_LABEL <label>])
function(course_add_test_folder lesson tree folder)
  cmake_parse_arguments(ARG "" "EXTRA_LABEL;HEADERS" "LINK" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS "${folder}/*_test.cpp" "${folder}/*_test.cu")
  list(SORT test_sources)
  if(lesson STREQUAL tree)
    set(base "${lesson}")
    set(prefix "${lesson}/")
  else()
    set(base "${lesson}_${tree}")
    set(prefix "${tree}/${lesson}/")
  endif()
  if(ARG_EXTRA_LABEL)
    set(base "${base}_${ARG_EXTRA_LABEL}")
    set(prefix "${prefix}${ARG_EXTRA_LABEL}/")
  endif()

  set(cpu_sources "")
  set(cpu_kernel_sources "")
  set(gpu_sources "")
  foreach(source IN LISTS test_sources)
    get_filename_component(stem "${source}" NAME_WE)
    if(stem MATCHES "^(cpu|gpu|perf)_(exercise|guard)_.+_test$")
      set(kind "${CMAKE_MATCH_1}")
    elseif(lesson STREQUAL "kit" AND stem MATCHES "^(cpu|gpu|perf)_.+_test$")
      set(kind "${CMAKE_MATCH_1}")
    else()
      message(FATAL_ERROR "${source}: test files are named <cpu|gpu|perf>_<exercise|guard>_"
                          "<what>_test.cpp (the name gives the test's labels)")
    endif()
    if(kind STREQUAL "cpu")
      if(source MATCHES "\\.cu$")
        message(FATAL_ERROR "${source}: a CPU test is host code, a .cpp file")
      endif()
      if(stem MATCHES "_kernel_test$")
        list(APPEND cpu_kernel_sources "${source}")
      else()
        list(APPEND cpu_sources "${source}")
      endif()
    else()
      list(APPEND gpu_sources "${source}")
    endif()
  endforeach()

  foreach(kind IN ITEMS cpu cpu_kernel gpu)
    if(NOT ${kind}_sources OR (kind STREQUAL "gpu" AND NOT COURSE_BUILD_GPU_TESTS))
      continue()
    endif()
    set(exe "${base}_${kind}")
    # A GPU test program's C++ is compiled as its own target, <program>_objects, which waits for
    # no library: after an edit of an exercise file it compiles beside the lesson's CUDA
    # library (nvcc), and only the link waits for that.
    set(units "${exe}")
    if(kind STREQUAL "gpu")
      set(units "${exe}_objects")
      add_library(${units} OBJECT ${${kind}_sources})
      add_executable(${exe})
      target_link_libraries(${exe} PRIVATE ${units})
      # A lesson's GPU tests print what they measure ([kit-counters], [kit-slowdown]): the
      # program holds those counts back ("?") until the student's Part 1 is written down, as
      # tests/NN_topic/predictions.hpp says (kit::counts_shown), set as the program starts.
      get_filename_component(folder_name "${folder}" NAME)
      set(predictions "${PROJECT_SOURCE_DIR}/tests/${folder_name}/predictions.hpp")
      if(EXISTS "${predictions}")
        set(shown "${CMAKE_CURRENT_BINARY_DIR}/${exe}_counts_shown.cpp")
        file(CONFIGURE OUTPUT "${shown}" @ONLY CONTENT [=[
// Generated by cmake/CourseLesson.cmake: the program's measurement lines give their counts
// once the lesson's Part 1 predictions are written down.
#include "@predictions@"

namespace {
const bool kCountsShownOf@lesson@ = kit::show_counts(@lesson@::testing::predictions_written());
} // namespace
]=])
        target_sources(${units} PRIVATE "${shown}")
      endif()
      # What the program's tests need of the GPU (kit::testing::declare_needs), from the
      # lesson's manifest: a test whose need this GPU does not meet skips with one sentence.
      _course_needs_source("${folder_name}" "${exe}" needs_source)
      if(needs_source)
        target_sources(${units} PRIVATE "${needs_source}")
      endif()
    else()
      add_executable(${exe} ${${kind}_sources})
    endif()
    # The lesson's kernels for their CPU run (kit/cpu_runtime.hpp): a translation unit of their
    # own, without GoogleTest, so an edit of exercise.cu recompiles them alone; in a program of
    # their own, so a kernel the host compiler refuses leaves the other CPU tests running.
    # (A folder of hidden tests uses the lesson's own, tests/NN_topic/kernels_on_cpu.cpp.)
    if(kind STREQUAL "cpu_kernel")
      get_filename_component(folder_name "${folder}" NAME)
      set(kernels "${folder}/kernels_on_cpu.cpp")
      if(NOT EXISTS "${kernels}")
        set(kernels "${PROJECT_SOURCE_DIR}/tests/${folder_name}/kernels_on_cpu.cpp")
      endif()
    endif()
    if(kind STREQUAL "cpu_kernel" AND EXISTS "${kernels}")
      target_sources(${exe} PRIVATE "${kernels}")
      # -O1: a third less compile time than -O3 after each edit; small shapes run in
      # milliseconds either way. -g1: the line table alone (about 0.1 s), so an out-of-bounds
      # global access names its line (kit/cpu_global_guard.hpp).
      set_source_files_properties("${kernels}" TARGET_DIRECTORY ${exe}
                                  PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON
                                             SKIP_PRECOMPILE_HEADERS ON
                                             COMPILE_OPTIONS "-O1;-g1")
    endif()
    if(kind STREQUAL "cpu" OR kind STREQUAL "cpu_kernel")
      target_link_libraries(${exe} PRIVATE ${ARG_HEADERS} GTest::gtest_main)
    endif()
    if(kind STREQUAL "cpu_kernel")
      # The CPU run takes dim3 and __half from the CUDA headers (still no CUDA library); the
      # kernels hold `#pragma unroll`, which the host compiler does not know.
      target_include_directories(${exe} SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
      target_compile_options(${exe} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-unknown-pragmas>)
      # dladdr, for the line of a faulting global access (in libc itself from glibc 2.34).
      target_link_libraries(${exe} PRIVATE ${CMAKE_DL_LIBS})
    elseif(kind STREQUAL "gpu")
      # What the files include (the lesson's headers, the twins' folder, the kit, GoogleTest),
      # without a build-order dependency on the lesson's CUDA library or the twins'.
      target_link_libraries(${units} PRIVATE ${ARG_HEADERS} kit_model families GTest::gtest
                                             CUDA::cudart)
      target_link_libraries(${exe} PRIVATE ${ARG_LINK} kit_testing GTest::gtest_main)
    endif()
    target_include_directories(${units} PRIVATE "${folder}")
    target_compile_options(${units} PRIVATE ${COURSE_TEST_CXX_OPTIONS})
    target_precompile_headers(${units} REUSE_FROM course_gtest_pch)
    # One translation unit per program (most of a test file's compile time is fixed cost):
    # helpers in the anonymous namespaces of one program's files must have distinct names.
    set_target_properties(${units} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 0)
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                            "${CMAKE_BINARY_DIR}/tests/${tree}")
    if(NOT lesson STREQUAL tree)
      _course_lesson_makes(${lesson} ${exe})
      add_dependencies(${lesson} ${exe})
      if(kind STREQUAL "cpu" OR kind STREQUAL "cpu_kernel")
        add_dependencies(${lesson}-cpu ${exe})
      endif()
    endif()
  endforeach()

  # A GPU test may run the CPU kernel program of its tree (kit/testing_cpu_run.hpp: the CPU
  # run of the kernels held to the counters), from the folder of its own program.
  if(TARGET ${base}_gpu AND TARGET ${base}_cpu_kernel)
    add_dependencies(${base}_gpu ${base}_cpu_kernel)
    course_test_reads("${prefix}"
                      "${CMAKE_BINARY_DIR}/tests/${tree}/${base}_cpu_kernel${CMAKE_EXECUTABLE_SUFFIX}")
  endif()

  foreach(source IN LISTS test_sources)
    get_filename_component(stem "${source}" NAME_WE)
    string(REGEX MATCH "^(cpu|gpu|perf)_((exercise|guard)_)?" _ "${stem}")
    set(kind "${CMAKE_MATCH_1}")
    set(role "${CMAKE_MATCH_3}")
    set(labels "${lesson};${tree};${role}")
    list(REMOVE_DUPLICATES labels)
    list(REMOVE_ITEM labels "")
    if(kind STREQUAL "cpu")
      set(exe "${base}_cpu")
      list(APPEND labels cpu)
      # cpu_*_predictions_test.cpp: the lesson's predictions (a part of its points of their own:
      # tools/course/grading/points_table.py).
      if(stem MATCHES "_predictions_test$")
        list(APPEND labels predictions)
      endif()
      # cpu_*_kernel_test.cpp: the lesson's kernels run on the CPU (kit/cpu_runtime.hpp).
      if(stem MATCHES "_kernel_test$")
        set(exe "${base}_cpu_kernel")
        list(APPEND labels cpu-kernel)
      endif()
      set(props TIMEOUT ${COURSE_CPU_TEST_TIMEOUT})
    else()
      set(exe "${base}_gpu")
      list(APPEND labels gpu)
      if(kind STREQUAL "perf")
        list(APPEND labels perf)
        set(props TIMEOUT ${COURSE_PERF_TEST_TIMEOUT} ${COURSE_GPU_ALONE})
      elseif(stem MATCHES "counters")
        list(APPEND labels counters)
        set(props TIMEOUT ${COURSE_GPU_TEST_TIMEOUT} ${COURSE_GPU_ALONE})
      else()
        file(READ "${source}" text)
        if(text MATCHES "CounterTest|SharedCounters|CounterSession")
          message(FATAL_ERROR "${source} reads the hardware counters: its tests belong in a file "
                              "whose name holds `counters` (they must run alone on the GPU)")
        endif()
        set(props TIMEOUT ${COURSE_GPU_TEST_TIMEOUT} ${COURSE_GPU_SHARED})
      endif()
    endif()
    if(ARG_EXTRA_LABEL)
      list(APPEND labels ${ARG_EXTRA_LABEL})
    endif()
    _course_test_names("${source}" names)
    if(NOT names)
      message(FATAL_ERROR "${source}: no TEST or TEST_F opens a line of this file")
    endif()
    if(kind STREQUAL "gpu" AND NOT lesson STREQUAL "kit" AND NOT stem MATCHES "counters")
      _course_add_sanitizer_tests("${prefix}" "${stem}" "${exe}" "${names}" "${labels}")
    endif()
    foreach(name IN LISTS names)
      if(kind STREQUAL "cpu" OR COURSE_BUILD_GPU_TESTS)
        add_test(NAME "${prefix}${name}" COMMAND ${exe} "--gtest_filter=${name}")
      else()
        _course_add_skipped_gpu_test("${prefix}${name}")
      endif()
      # A skip (GTEST_SKIP) reports as Skipped, never Passed; a filter that selects nothing
      # (a test renamed since the last configure) fails instead of passing with no test run.
      set_tests_properties("${prefix}${name}" PROPERTIES
        LABELS "${labels}"
        SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
        FAIL_REGULAR_EXPRESSION "Running 0 tests from 0 test suites"
        ${props})
      # The course's self-check of the bank model on this GPU (`./course self-check`) writes
      # its record here; the kit reads it (kit::wide_rules_verified).
      if(NOT kind STREQUAL "cpu")
        set_property(TEST "${prefix}${name}" APPEND PROPERTY ENVIRONMENT
                     "KIT_SELF_CHECK=${CMAKE_BINARY_DIR}/self-check/rules.json")
      endif()
    endforeach()
  endforeach()
  # A test added to a file is registered at the next build (the file is read at configure time).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${test_sources})
endfunction()

# A need of lesson.json's `gpu` (or of one of its `tests` entries) as a kit::Needs initializer.
function(_course_needs_literal json out_var)
  set(cc 0)
  string(JSON value ERROR_VARIABLE missing GET "${json}" compute_capability)
  if(NOT missing)
    if(NOT value MATCHES "^([0-9]+)\\.([0-9])$")
      message(FATAL_ERROR "compute_capability '${value}' is not MAJOR.MINOR")
    endif()
    math(EXPR cc "${CMAKE_MATCH_1} * 10 + ${CMAKE_MATCH_2}")
  endif()
  set(literal "kit::Needs{${cc}")
  foreach(key IN ITEMS tma ldmatrix stmatrix shared_memory_per_block wide_rules ldmatrix_rule)
    string(JSON value ERROR_VARIABLE missing GET "${json}" ${key})
    if(key STREQUAL "shared_memory_per_block")
      if(missing)
        set(value 0)
      endif()
      string(APPEND literal ", ${value}u")
    elseif(NOT missing AND value)
      string(APPEND literal ", true")
    else()
      string(APPEND literal ", false")
    endif()
  endforeach()
  set(${out_var} "${literal}}" PARENT_SCOPE)
endfunction()

# Writes the translation unit that declares what the GPU test program `exe` of the lesson in
# lessons/<folder_name> needs (kit::testing::declare_needs), from its manifest's `gpu`; sets
# out_var to its path, or to "" where the folder has no manifest (the kit's own tests).
function(_course_needs_source folder_name exe out_var)
  set(path "${PROJECT_SOURCE_DIR}/lessons/${folder_name}/lesson.json")
  set(${out_var} "" PARENT_SCOPE)
  if(NOT EXISTS "${path}")
    return()
  endif()
  file(READ "${path}" manifest)
  string(JSON gpu GET "${manifest}" gpu)
  _course_needs_literal("${gpu}" lesson_needs)
  set(tests "")
  string(JSON count ERROR_VARIABLE missing LENGTH "${gpu}" tests)
  if(NOT missing AND count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON entry GET "${gpu}" tests ${i})
      string(JSON names LENGTH "${entry}" tests)
      math(EXPR names_last "${names} - 1")
      set(patterns "")
      foreach(j RANGE ${names_last})
        string(JSON name GET "${entry}" tests ${j})
        string(APPEND patterns "\"${name}\", ")
      endforeach()
      _course_needs_literal("${entry}" needs)
      string(APPEND tests "    kit::TestNeeds{{${patterns}}, ${needs}},\n")
    endforeach()
  endif()
  set(source "${CMAKE_CURRENT_BINARY_DIR}/${exe}_needs.cpp")
  file(CONFIGURE OUTPUT "${source}" @ONLY CONTENT [=[
// Generated by cmake/CourseLesson.cmake from lessons/@folder_name@/lesson.json: what the tests
// of this program need of the GPU.
#include "kit/testing.hpp"

namespace {
const bool kNeedsDeclared = kit::testing::declare_needs(@lesson_needs@, {
@tests@});
} // namespace
]=])
  set(${out_var} "${source}" PARENT_SCOPE)
endfunction()

# The lesson's facts, lessons/NN_topic/lesson.json (tools/course/model/manifest.py has the
# whole format). The build checks the ones its files show, and stops where they disagree: the
# lesson's number; kernel_on_cpu (the tests run the student's kernel on the CPU: cpu_*_kernel_test
# files and kernels_on_cpu.cpp); gpu.counters (a GPU test file whose name holds `counters`); and
# that every GPU need is given.
function(_course_read_manifest number lesson_dir tests_dir)
  set(path "${lesson_dir}/lesson.json")
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "${path} is missing: every lesson has its manifest "
                        "(docs/maintainers.md, 'Adding a lesson')")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}")
  file(READ "${path}" manifest)
  foreach(key IN ITEMS lesson kernel_on_cpu "gpu;compute_capability" "gpu;tma" "gpu;ldmatrix"
                       "gpu;stmatrix" "gpu;shared_memory_per_block" "gpu;counters")
    string(JSON value ERROR_VARIABLE error GET "${manifest}" ${key})
    if(error)
      string(REPLACE ";" "." shown "${key}")
      message(FATAL_ERROR "${path}: ${shown}: ${error}")
    endif()
    string(REPLACE ";" "_" var "${key}")
    set(m_${var} "${value}")
  endforeach()
  if(NOT m_lesson STREQUAL number)
    message(FATAL_ERROR "${path}: lesson is \"${m_lesson}\", not the folder's number ${number}")
  endif()
  # string(JSON) gives a JSON boolean as ON or OFF.
  file(GLOB kernel_tests "${tests_dir}/cpu_*_kernel_test.cpp")
  if(kernel_tests AND EXISTS "${tests_dir}/kernels_on_cpu.cpp")
    if(NOT m_kernel_on_cpu)
      message(FATAL_ERROR "${path}: kernel_on_cpu is false, but ${tests_dir} runs the kernels "
                          "on the CPU (cpu_*_kernel_test.cpp files and kernels_on_cpu.cpp)")
    endif()
  elseif(m_kernel_on_cpu)
    message(FATAL_ERROR "${path}: kernel_on_cpu is true, but ${tests_dir} lacks "
                        "cpu_*_kernel_test.cpp files or kernels_on_cpu.cpp")
  endif()
  file(GLOB counter_tests "${tests_dir}/gpu_*counters*_test.cpp" "${tests_dir}/gpu_*counters*_test.cu")
  if(counter_tests AND NOT m_gpu_counters)
    message(FATAL_ERROR "${path}: gpu.counters is false, but ${tests_dir} has GPU tests that "
                        "read the counters (a file whose name holds `counters`)")
  elseif(NOT counter_tests AND m_gpu_counters)
    message(FATAL_ERROR "${path}: gpu.counters is true, but ${tests_dir} has no GPU test file "
                        "whose name holds `counters`")
  endif()
endfunction()

function(course_add_lesson number topic)
  set(name "${number}_${topic}")
  set(lesson "lesson${number}")
  set(lesson_dir "${PROJECT_SOURCE_DIR}/lessons/${name}")
  set(solution_dir "${PROJECT_SOURCE_DIR}/solutions/${name}")
  foreach(dir IN ITEMS "${lesson_dir}" "${PROJECT_SOURCE_DIR}/tests/${name}")
    if(NOT IS_DIRECTORY "${dir}")
      message(FATAL_ERROR "course_add_lesson(${number} ${topic}): ${dir} is missing")
    endif()
  endforeach()
  _course_read_manifest(${number} "${lesson_dir}" "${PROJECT_SOURCE_DIR}/tests/${name}")
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS "${name}")
  add_custom_target(${lesson})
  add_custom_target(${lesson}-cpu)
  file(GLOB lesson_sources CONFIGURE_DEPENDS "${lesson_dir}/*.cu" "${lesson_dir}/*.cpp")
  # The kernels the tests own (twin.cu): built once, for the GPU test programs of every tree.
  # They see the lesson's own headers (lessons/, never a tree's exercise) and the tests'.
  set(twin "")
  file(GLOB twin_sources CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/tests/${name}/*.cu")
  list(FILTER twin_sources EXCLUDE REGEX "_test\\.cu$")
  if(twin_sources AND COURSE_BUILD_GPU_TESTS)
    set(twin ${lesson}_twin)
    add_library(${twin} STATIC ${twin_sources})
    target_include_directories(${twin} PRIVATE "${lesson_dir}" "${PROJECT_SOURCE_DIR}/tests/${name}")
    target_include_directories(${twin} SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
    target_link_libraries(${twin} PUBLIC kit_model families)
    _course_lesson_makes(${lesson} ${twin})
    add_dependencies(${lesson} ${twin})
  endif()
  foreach(tree IN LISTS COURSE_TREES)
    if(tree STREQUAL "student")
      set(sources ${lesson_sources})
      set(include_dirs "${lesson_dir}")
    else()
      # The solution folder holds the files the student writes; every other file of the
      # lesson (the demos) is shared, so the solution tree takes it from lessons/.
      if(NOT IS_DIRECTORY "${solution_dir}")
        message(FATAL_ERROR "course_add_lesson(${number} ${topic}): ${solution_dir} is missing")
      endif()
      file(GLOB sources CONFIGURE_DEPENDS "${solution_dir}/*.cu" "${solution_dir}/*.cpp")
      foreach(src IN LISTS lesson_sources)
        get_filename_component(file_name "${src}" NAME)
        if(NOT EXISTS "${solution_dir}/${file_name}")
          list(APPEND sources "${src}")
        endif()
      endforeach()
      set(include_dirs "${solution_dir}" "${lesson_dir}")
    endif()
    # Lesson sources include the lesson's headers with <...>, so the search follows this
    # order (the solution's header first) rather than the including file's folder. The CUDA
    # headers are there for the host compiler too (cudaStream_t, __half in declarations).
    add_library(${lesson}_${tree}_headers INTERFACE)
    target_include_directories(${lesson}_${tree}_headers INTERFACE ${include_dirs})
    target_include_directories(${lesson}_${tree}_headers SYSTEM INTERFACE
                               ${CUDAToolkit_INCLUDE_DIRS})
    target_link_libraries(${lesson}_${tree}_headers INTERFACE kit_model families)
    # The folder of this tree's copy of the files a student writes (a test may read them:
    # lesson 10 checks that its harness is the student's own).
    if(tree STREQUAL "student")
      set(exercise_dir "${lesson_dir}")
    else()
      set(exercise_dir "${solution_dir}")
    endif()
    # Which tree and exercise a program linked with the lesson was built from, for the notes
    # of the tables a tool writes (the folder relative to the repository: lessons/NN_topic or
    # solutions/NN_topic).
    file(RELATIVE_PATH exercise_path "${PROJECT_SOURCE_DIR}" "${exercise_dir}")
    target_compile_definitions(${lesson}_${tree}_headers INTERFACE
                               "COURSE_EXERCISE_DIR=\"${exercise_dir}\""
                               "COURSE_TREE=\"${tree}\"" "COURSE_EXERCISE_PATH=\"${exercise_path}\"")
    file(GLOB exercise_files LIST_DIRECTORIES false "${exercise_dir}/exercise*")
    course_test_reads("${tree}/${lesson}/" ${exercise_files})
    # The kit's library is linked by the GPU test programs: building the lesson's kernels does
    # not wait for it.
    add_library(${lesson}_${tree} STATIC ${sources})
    target_link_libraries(${lesson}_${tree} PUBLIC ${lesson}_${tree}_headers)
    _course_lesson_makes(${lesson} ${lesson}_${tree})
    add_dependencies(${lesson} ${lesson}_${tree})
    set(tests "${PROJECT_SOURCE_DIR}/tests/${name}")
    course_add_test_folder(${lesson} ${tree} "${tests}"
                           HEADERS ${lesson}_${tree}_headers LINK ${lesson}_${tree} ${twin})
    if(COURSE_EXTRA_TESTS_DIR AND IS_DIRECTORY "${COURSE_EXTRA_TESTS_DIR}/${name}")
      course_add_test_folder(${lesson} ${tree} "${COURSE_EXTRA_TESTS_DIR}/${name}"
                             HEADERS ${lesson}_${tree}_headers LINK ${lesson}_${tree} ${twin}
                             EXTRA_LABEL hidden)
    endif()
  endforeach()
  # A lesson whose tests need more than the kit (a library such as cuBLAS, a definition)
  # says so in tests/NN_topic/lesson.cmake, included here with `lesson`, `name` and
  # COURSE_TREES set; its test programs are <lesson>_<tree>_cpu and <lesson>_<tree>_gpu, whose
  # files compile as <lesson>_<tree>_gpu_objects (a definition they need goes there). A
  # target of its own that a test runs is the lesson's too: _course_lesson_makes(${lesson} <it>).
  if(EXISTS "${PROJECT_SOURCE_DIR}/tests/${name}/lesson.cmake")
    include("${PROJECT_SOURCE_DIR}/tests/${name}/lesson.cmake")
  endif()
endfunction()

# course_add_lesson_program(<NN> <name> SOURCES <source>... [LINK <library>...] [CLI_TEST <script>])
#
# A program built on lesson NN: one per tree this build has, each linked with that tree's
# lesson library (lessonNN_<tree>) and the LINK libraries, so each tree has its own program,
# reading that tree's kernels, and no program chooses a tree. The student tree's is `<name>`,
# another tree's `<name>-<tree>` (`<name>-solution`: what maintainers measure the committed
# tables with); both in ${CMAKE_BINARY_DIR}/bin. The benchmark tools are such programs
# (tools/transpose_bench: lesson 05; tools/measuring_bench: lesson 10): their sources live with
# the tools, and neither the kit nor the tools' own code knows a lesson's solution.
#
# Each program sees COURSE_PROGRAM (its name, for its messages and the command its tables
# record) and, from the lesson's library, COURSE_TREE and COURSE_EXERCISE_PATH (whose exercise
# it was built from: tools/common/built_from.hpp). Its target's COURSE_TREE property is its
# tree. CLI_TEST <script> registers tools/<program>/cli for each program: the script, given the
# program and its tree, checks its command line, its error paths and its no-GPU exit (a CPU
# test).
# Every tree of the build builds every lesson of lessons/ (course_add_lesson); the lessons'
# libraries are defined after tools/, and their names are resolved when the build is generated.
function(course_add_lesson_program number name)
  cmake_parse_arguments(ARG "" "CLI_TEST" "SOURCES;LINK" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_SOURCES)
    message(FATAL_ERROR "course_add_lesson_program(${number} ${name} SOURCES <source>... "
                        "[LINK <library>...] [CLI_TEST <script>]): got ${ARGN}")
  endif()
  file(GLOB lesson_dirs LIST_DIRECTORIES true "${PROJECT_SOURCE_DIR}/lessons/${number}_*")
  set(lesson_dir "")
  foreach(dir IN LISTS lesson_dirs)
    if(IS_DIRECTORY "${dir}")
      set(lesson_dir "${dir}")
    endif()
  endforeach()
  if(NOT lesson_dir)
    message(FATAL_ERROR "course_add_lesson_program(${number} ${name}): there is no lesson "
                        "${number} (lessons/${number}_<topic>)")
  endif()
  foreach(tree IN LISTS COURSE_TREES)
    if(tree STREQUAL "student")
      set(program "${name}")
    else()
      set(program "${name}-${tree}")
    endif()
    add_executable(${program} ${ARG_SOURCES})
    target_link_libraries(${program} PRIVATE lesson${number}_${tree} ${ARG_LINK})
    target_compile_definitions(${program} PRIVATE "COURSE_PROGRAM=\"${program}\"")
    set_target_properties(${program} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin"
                                                COURSE_TREE "${tree}")
    # Its command line, checked without a GPU: CLI_TEST <script> <program> <tree>.
    if(ARG_CLI_TEST)
      add_test(NAME tools/${program}/cli
               COMMAND Python3::Interpreter "${ARG_CLI_TEST}" "$<TARGET_FILE:${program}>" ${tree})
      set_tests_properties(tools/${program}/cli PROPERTIES LABELS "tools;cpu" TIMEOUT 120)
    endif()
  endforeach()
endfunction()
