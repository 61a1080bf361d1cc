// correlate timed against its twin in one saturating run (GPU tests only).
#pragma once

#include <demo.hpp>

#include "correlate_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "twin.hpp"

namespace lesson02::testing {

/// Times correlate against correlate_twin on 32 full waves of blocks of this GPU, and expects
/// the ratio in the band around the model's ratio of their traces.
inline void expect_slowdown_against_twin() {
  constexpr int kWaves = 32;
  const int n =
      kit::saturating_blocks(correlate_twin_kernel(), kBlockThreads, 0) * kBlockThreads * kWaves;
  kit::DeviceBuffer<float2> d_x(n), d_y(n);
  d_x.fill_bytes(0);
  const Taps h{};
  // Static shared memory only: kTileFloats floats in both kernels.
  const kit::Launch a{"correlate", correlate_kernel(), kBlockThreads, 0,
                      [&](cudaStream_t s) { correlate(d_x.get(), d_y.get(), n, h, s); }};
  const kit::Launch b{"correlate_twin", correlate_twin_kernel(), kBlockThreads, 0,
                      [&](cudaStream_t s) { correlate_twin(d_x.get(), d_y.get(), n, h, s); }};
  KIT_EXPECT_SLOWDOWN(a, b, model_ratio(n));
}

} // namespace lesson02::testing
