# Lesson 09's GPU tests compare the kernels with cuBLAS SGEMM when the toolkit has it
# (CMake's CUDAToolkit package, CUDA::cublas); without it those comparisons skip with the
# reason. The speed tests read the gains recorded in docs/measurements/.
foreach(tree IN LISTS COURSE_TREES)
  if(NOT TARGET ${lesson}_${tree}_gpu)
    continue()
  endif()
  # The GPU test files compile as ${lesson}_${tree}_gpu_objects (CourseLesson.cmake).
  target_compile_definitions(${lesson}_${tree}_gpu_objects PRIVATE
    LESSON09_MEASUREMENTS_DIR="${PROJECT_SOURCE_DIR}/docs/measurements")
  course_test_reads("${tree}/${lesson}/" "${PROJECT_SOURCE_DIR}/docs/measurements/gemm_gain.csv")
  if(TARGET CUDA::cublas)
    target_link_libraries(${lesson}_${tree}_gpu PRIVATE CUDA::cublas)
    target_compile_definitions(${lesson}_${tree}_gpu_objects PRIVATE LESSON09_HAVE_CUBLAS=1)
  endif()
endforeach()
