// attack: global state that changes between calls: a mutable member of an inline constexpr object
// lesson: 01
// file: exercise.hpp
// refused: mutable
// @inside
struct Calls {
  mutable int count = 0;
};
inline constexpr Calls kCalls{};
