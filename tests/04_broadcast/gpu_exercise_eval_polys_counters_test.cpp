// Part 2 on the GPU: the counters read one wavefront per request for every Horner step and
// staging store of eval_polys.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "eval_polys_gpu.hpp"
#include "eval_polys_trace.hpp"
#include "kit/testing.hpp"

namespace {

class EvalPolysCounters : public kit::testing::CounterTest {};

TEST_F(EvalPolysCounters, OneWavefrontPerRequest) {
  const lesson04::testing::ZeroProblem p(16 * 20 + 5, 16 * 30 + 3);
  expect_ideal(
      "eval_polys", lesson04::testing::exercise_trace(p.n_polys, p.n_points),
      [&] { p.run(lesson04::eval_polys); }, "the Horner steps", "the staging stores");
}

} // namespace
