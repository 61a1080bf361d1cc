// The bank model predicts eval_polys (and its twin) and center_blocks exactly, whatever their
// layouts: the counters equal the traces built from the kernels' own layouts, requests
// included.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <demo.hpp>

#include "center_blocks_trace.hpp"
#include "eval_polys_gpu.hpp"
#include "eval_polys_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class ExerciseTraces : public kit::testing::CounterTest {};

TEST_F(ExerciseTraces, EvalPolysCountersEqualTheModel) {
  for (auto [n_polys, n_points] : {std::pair{16 * 20, 16 * 30}, std::pair{1000, 77}}) {
    const lesson04::testing::ZeroProblem p(n_polys, n_points);
    const std::string shape = std::to_string(n_polys) + "x" + std::to_string(n_points);
    expect_counts("eval_polys " + shape, lesson04::testing::exercise_trace(n_polys, n_points),
                  [&] { p.run(lesson04::eval_polys); });
    expect_counts("eval_polys_twin " + shape, lesson04::testing::twin_trace(n_polys, n_points),
                  [&] { p.run(lesson04::testing::eval_polys_twin); });
  }
}

TEST_F(ExerciseTraces, CenterBlocksCountersEqualTheModel) {
  // A short last block too: every thread reads the mean (kit::ld_shared), past the end as well.
  for (int n : {lesson04::kCenterBlockThreads * 64, lesson04::kCenterBlockThreads * 3 + 77}) {
    kit::DeviceBuffer<float> d_in(n), d_out(n);
    d_in.fill_bytes(0);
    expect_counts("center_blocks n=" + std::to_string(n), lesson04::testing::center_trace(n),
                  [&] { lesson04::center_blocks(d_in.get(), d_out.get(), n); });
  }
}

} // namespace
