// The bank model predicts eval_polys (and its twin) and center_blocks exactly, whatever their
// layouts: the counters equal the traces built from the kernels' own index functions,
// requests included.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include <demo.hpp>
#include <exercise.hpp>

#include "center_blocks_trace.hpp"
#include "eval_polys_trace.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

class ExerciseTraces : public kit::testing::CounterTest {};

TEST_F(ExerciseTraces, EvalPolysCountersEqualTheModel) {
  for (auto [n_polys, n_points] : {std::pair{16 * 20, 16 * 30}, std::pair{1000, 77}}) {
    kit::DeviceBuffer<float> d_coefs(static_cast<std::size_t>(n_polys) * lesson04::kCoefs);
    kit::DeviceBuffer<float> d_points(n_points);
    kit::DeviceBuffer<float> d_out(static_cast<std::size_t>(n_polys) * n_points);
    d_coefs.fill_bytes(0);
    d_points.fill_bytes(0);
    const std::string shape = std::to_string(n_polys) + "x" + std::to_string(n_points);
    expect_counts("eval_polys " + shape, lesson04::testing::exercise_trace(n_polys, n_points), [&] {
      lesson04::eval_polys(d_coefs.get(), n_polys, d_points.get(), n_points, d_out.get());
    });
    expect_counts(
        "eval_polys_twin " + shape, lesson04::testing::twin_trace(n_polys, n_points), [&] {
          lesson04::eval_polys_twin(d_coefs.get(), n_polys, d_points.get(), n_points, d_out.get());
        });
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
