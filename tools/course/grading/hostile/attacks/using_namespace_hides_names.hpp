// attack: `using namespace std;` so that the standard library's names can be written without `std::` (and a check of `std::` names misses them)
// lesson: 01
// file: exercise.hpp
// refused: using namespace
// runtime: yes
// @top
#include <cstdlib>
// @inside
using namespace std;
inline const int kLeaveEarly = (quick_exit(0), 0);
