# course_add_lesson(<NN> <topic>): one lesson, built once per tree.
#
# For lesson `03_stride_32` and each enabled tree it makes
#   - lesson03_<tree>: a static library. The student tree is lessons/03_stride_32. The
#     solution tree is solutions/03_stride_32 (the files a student writes: exercise.hpp,
#     exercise.cu) plus every other file of lessons/03_stride_32 (the demos, shared);
#   - one test program per file tests/03_stride_32/<kind>_<role>_<what>_test.{cpp,cu},
#     compiled against that tree. One test source, two programs: never two copies.
#   - a target `lesson03` that builds everything of the lesson, so a broken lesson can be
#     built (and fail) on its own.
#
# The file name gives the labels: <kind> is cpu, gpu or perf (perf tests are GPU timing
# tests: labels gpu;perf) and <role> is exercise (must fail on the starter, pass on the
# solution) or guard (must pass on both). Every test also carries the lesson label
# (lesson03) and the tree label (student or solution). GPU tests hold the `gpu` resource
# lock, so `ctest -j` never times or profiles two of them at once.

set(COURSE_CPU_TEST_TIMEOUT 60 CACHE STRING "ctest TIMEOUT (seconds) of a CPU test")
set(COURSE_GPU_TEST_TIMEOUT 120 CACHE STRING "ctest TIMEOUT (seconds) of a GPU test")
set(COURSE_PERF_TEST_TIMEOUT 300 CACHE STRING "ctest TIMEOUT (seconds) of a timing test")

# Registers the tests of one folder against one tree's lesson library (or, for the kit's own
# tests, against the kit: course_add_test_folder(kit kit <folder> LINK kit)).
# course_add_test_folder(<lesson> <tree> <folder> [EXTRA_LABEL <label>] [LINK <target>])
function(course_add_test_folder lesson tree folder)
  cmake_parse_arguments(ARG "" "EXTRA_LABEL;LINK" "" ${ARGN})
  if(NOT ARG_LINK)
    set(ARG_LINK ${lesson}_${tree})
  endif()
  file(GLOB test_sources CONFIGURE_DEPENDS "${folder}/*_test.cpp" "${folder}/*_test.cu")
  list(SORT test_sources)
  foreach(source IN LISTS test_sources)
    get_filename_component(stem "${source}" NAME_WE)
    if(stem MATCHES "^(cpu|gpu|perf)_(exercise|guard)_.+_test$")
      set(kind "${CMAKE_MATCH_1}")
      set(role "${CMAKE_MATCH_2}")
    elseif(lesson STREQUAL "kit" AND stem MATCHES "^(cpu|gpu|perf)_.+_test$")
      set(kind "${CMAKE_MATCH_1}")
      set(role "")
    else()
      message(FATAL_ERROR "${source}: test files are named <cpu|gpu|perf>_<exercise|guard>_"
                          "<what>_test.cpp (the name gives the test's labels)")
    endif()
    if(lesson STREQUAL tree)
      set(exe "${lesson}_${stem}")
      set(prefix "${lesson}/")
    else()
      set(exe "${lesson}_${tree}_${stem}")
      set(prefix "${tree}/${lesson}/")
    endif()
    if(ARG_EXTRA_LABEL)
      set(exe "${lesson}_${tree}_${ARG_EXTRA_LABEL}_${stem}")
      set(prefix "${prefix}${ARG_EXTRA_LABEL}/")
    endif()
    add_executable(${exe} "${source}")
    target_link_libraries(${exe} PRIVATE ${ARG_LINK} kit_testing GTest::gtest_main)
    target_include_directories(${exe} PRIVATE "${folder}")
    set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests/${tree}")
    if(NOT lesson STREQUAL tree)
      add_dependencies(${lesson} ${exe})
    endif()

    set(labels "${lesson};${tree};${role}")
    list(REMOVE_DUPLICATES labels)
    list(REMOVE_ITEM labels "")
    if(kind STREQUAL "cpu")
      list(APPEND labels cpu)
      set(props TIMEOUT ${COURSE_CPU_TEST_TIMEOUT})
    else()
      list(APPEND labels gpu)
      if(kind STREQUAL "perf")
        list(APPEND labels perf)
        set(props TIMEOUT ${COURSE_PERF_TEST_TIMEOUT} RESOURCE_LOCK gpu)
      else()
        set(props TIMEOUT ${COURSE_GPU_TEST_TIMEOUT} RESOURCE_LOCK gpu)
      endif()
    endif()
    if(ARG_EXTRA_LABEL)
      list(APPEND labels ${ARG_EXTRA_LABEL})
    endif()
    gtest_discover_tests(${exe}
      TEST_PREFIX "${prefix}"
      DISCOVERY_TIMEOUT 60
      PROPERTIES ${props})
    # gtest_discover_tests passes PROPERTIES through a script that splits lists, so the
    # labels are set by an include file that runs after the discovered tests are defined.
    set(label_file "${CMAKE_CURRENT_BINARY_DIR}/${exe}_labels.cmake")
    file(WRITE "${label_file}"
      "if(DEFINED ${exe}_TESTS)\n"
      "  set_tests_properties(\${${exe}_TESTS} PROPERTIES LABELS \"${labels}\")\n"
      "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${label_file}")
  endforeach()
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
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS "${name}")
  add_custom_target(${lesson})
  file(GLOB lesson_sources CONFIGURE_DEPENDS "${lesson_dir}/*.cu" "${lesson_dir}/*.cpp")
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
    add_library(${lesson}_${tree} STATIC ${sources})
    # Lesson sources include the lesson's headers with <...>, so the search follows this
    # order (the solution's header first) rather than the including file's folder.
    target_include_directories(${lesson}_${tree} PUBLIC ${include_dirs})
    target_link_libraries(${lesson}_${tree} PUBLIC kit)
    add_dependencies(${lesson} ${lesson}_${tree})
    course_add_test_folder(${lesson} ${tree} "${PROJECT_SOURCE_DIR}/tests/${name}")
    if(COURSE_EXTRA_TESTS_DIR AND IS_DIRECTORY "${COURSE_EXTRA_TESTS_DIR}/${name}")
      course_add_test_folder(${lesson} ${tree} "${COURSE_EXTRA_TESTS_DIR}/${name}"
                             EXTRA_LABEL hidden)
    endif()
  endforeach()
endfunction()
