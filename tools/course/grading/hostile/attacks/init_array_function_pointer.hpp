// attack: a start-up hook without `constructor`: a constexpr function pointer placed in .init_array
// lesson: 01
// file: exercise.hpp
// refused: attribute
// @inside
inline void hook() {}
[[gnu::section(".init_array"), gnu::used]] constexpr auto kHook = &hook;
