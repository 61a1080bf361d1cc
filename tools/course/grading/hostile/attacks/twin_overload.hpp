// attack: a second declaration of a function the course already declares (an overload a test would pick up in place of the course's)
// lesson: 05
// file: exercise.hpp
// refused: course name
// @inside
template <class T>
void transpose_naive(const T* in, T* out, int rows, int cols, cudaStream_t stream = nullptr) {}
