// attack: a declarator in parentheses, which hides a name from rules that read tokens: a template overload of the lesson's reverse_blocks that beats the course's `const float*` one for a non-const pointer
// lesson: 01
// file: exercise.hpp
// refused: declarator
// @inside
template <class T>
void (reverse_blocks)(T* in, float* out, int n, cudaStream_t = nullptr) {
  for (int i = 0; i < n; ++i) {
    out[i] = in[n - 1 - i];
  }
}
