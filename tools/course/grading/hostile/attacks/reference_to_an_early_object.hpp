// attack: a reference at namespace scope bound to a temporary: the object is made before main, so its constructor runs outside every test (and its destructor after them)
// lesson: 01
// file: exercise.hpp
// refused: pointer
// @inside
struct Early {
  int value;
  Early() : value(1) {}
};
inline const Early& kEarly = Early{};
