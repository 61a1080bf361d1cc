// attack: a new file, exercise_extra.cu, which the lesson's build would compile into its library (its static initializers would run in every GPU test program)
// lesson: 01
// file: exercise_extra.cu
// refused: ignored (not a file of the starter)
// @new
#include <cstdlib>
namespace lesson01 {
inline const int kLeaveEarly = (std::exit(0), 0);
} // namespace lesson01
