# Lesson 05's CPU tests emulate the tiled transposes over every awkward shape, 4096 x 4096 among
# them: at -O1 each of the two emulation tests runs in 0.8 s, at the test programs' -Og in 1.6 s,
# longer than -O1 adds to the program's compile after an edit of exercise.hpp.
foreach(tree IN LISTS COURSE_TREES)
  if(TARGET ${lesson}_${tree}_cpu)
    course_optimise_test_program(${lesson}_${tree}_cpu)
  endif()
endforeach()
