// attack: a SIGABRT handler that exits 0, so a failed check that aborts looks like success
// lesson: 01
// file: exercise.hpp
// refused: signal handling
// @top
#include <csignal>
#include <cstdlib>
// @inside
inline const auto kHandler = std::signal(SIGABRT, [](int) { std::_Exit(0); });
