// attack: include a file outside the lesson's headers (a test's helper, or any file on the machine)
// lesson: 01
// file: exercise.hpp
// refused: include
// @top
#include "reverse_trace.hpp"
#include "/etc/hostname"
