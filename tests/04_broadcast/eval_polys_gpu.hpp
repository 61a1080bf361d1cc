// eval_polys on the GPU for the counter and timing tests (GPU tests only): a problem of zeros
// on the device, and eval_polys timed against its twin.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include <demo.hpp>

#include "eval_polys_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "kit/timer.hpp"

namespace lesson04::testing {

/// eval_polys or eval_polys_twin.
using EvalPolys = void (*)(const float*, int, const float*, int, float*, cudaStream_t);

/// n_polys polynomials and n_points points, all zeros, on the device: what the counters and
/// the timer run on (the values do not change a shared-memory instruction).
struct ZeroProblem {
  int n_polys;
  int n_points;
  kit::DeviceBuffer<float> coefs{static_cast<std::size_t>(n_polys) * kCoefs};
  kit::DeviceBuffer<float> points{static_cast<std::size_t>(n_points)};
  kit::DeviceBuffer<float> out{static_cast<std::size_t>(n_polys) * n_points};

  ZeroProblem(int polys, int pts) : n_polys(polys), n_points(pts) {
    coefs.fill_bytes(0);
    points.fill_bytes(0);
  }
  /// Launches `eval` on the problem.
  void run(EvalPolys eval, cudaStream_t stream = nullptr) const {
    eval(coefs.get(), n_polys, points.get(), n_points, out.get(), stream);
  }
};

/// Times eval_polys against eval_polys_twin on 32 full waves of blocks of this GPU (1024
/// blocks of polynomials, 16384 polynomials, and the blocks of points the waves need), and
/// expects the ratio in the band around the model's ratio of their traces.
inline void expect_slowdown_against_twin() {
  constexpr int kPolyBlocks = 1024;
  constexpr int kWaves = 32;
  const int wave = kit::saturating_blocks(eval_polys_twin_kernel(), kBlockThreads, 0);
  const ZeroProblem p(kPolyBlocks * kPolysPerBlock,
                      (wave * kWaves + kPolyBlocks - 1) / kPolyBlocks * kPointsPerBlock);
  // Static shared memory only: kTableCapacity floats in both kernels.
  const auto launch = [&p](std::string name, const void* kernel, EvalPolys eval) {
    return kit::Launch{std::move(name), kernel, kBlockThreads, 0,
                       [&p, eval](cudaStream_t s) { p.run(eval, s); }};
  };
  KIT_EXPECT_SLOWDOWN(launch("eval_polys", eval_polys_kernel(), eval_polys),
                      launch("eval_polys_twin", eval_polys_twin_kernel(), eval_polys_twin),
                      model_ratio(p.n_polys, p.n_points));
}

} // namespace lesson04::testing
