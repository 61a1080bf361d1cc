// attack: the predictions worked out with constexpr arithmetic of the student's own (legitimate: the policy allows it, and it earns the prediction tests' points)
// lesson: 01
// file: exercise.hpp
// refused: nothing (allowed)
// expect: allowed
// @inside
/// The banks lanes 0..31 of a 4-byte load at stride `s` floats use, counted the way the README
/// explains: the most lanes any one bank serves.
constexpr int my_wavefronts(int s) {
  int most = 0;
  for (int bank = 0; bank < 32; ++bank) {
    int lanes = 0;
    for (int lane = 0; lane < 32; ++lane) {
      lanes += (lane * s) % 32 == bank ? 1 : 0;
    }
    most = lanes > most ? lanes : most;
  }
  return most;
}
// @replace-line kPredictedStrideOneWavefronts
inline constexpr int kPredictedStrideOneWavefronts = my_wavefronts(1);
// @replace-line kPredictedStride33Wavefronts
inline constexpr int kPredictedStride33Wavefronts = my_wavefronts(33);
