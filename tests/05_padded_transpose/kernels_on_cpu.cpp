// The lesson's kernels compiled by the host compiler for their CPU run (kit/cpu_runtime.hpp):
// demo.cu and this tree's exercise.cu. Compiled on its own into the lesson's CPU test
// programs (cmake/CourseLesson.cmake), so an edit of exercise.cu recompiles this file alone.
#include <demo.cu>
#include <exercise.cu>
