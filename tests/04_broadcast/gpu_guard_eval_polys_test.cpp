// eval_polys and its twin on the GPU: the CPU reference on fresh random coefficients and
// points, for shapes that are not multiples of the block, into poisoned outputs. The starter
// is slow but right; keep it right.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "eval_polys_reference.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "twin.hpp"

namespace {

using EvalPolys = std::function<void(const float*, int, const float*, int, float*)>;

void expect_matches_the_cpu(const std::string& name, const EvalPolys& eval_polys) {
  const std::uint64_t seed = kit::testing::fresh_seed();
  std::vector<std::pair<int, int>> shapes = {{1, 1},   {1, 31},  {31, 1},    {17, 33},
                                             {16, 16}, {33, 48}, {1000, 777}};
  if (kit::small_mode()) {
    shapes.pop_back();
  }
  for (const auto& [n_polys, n_points] : shapes) {
    const std::vector<float> coefs =
        kit::testing::random_floats(static_cast<std::size_t>(n_polys) * lesson04::kCoefs,
                                    seed + static_cast<std::uint64_t>(n_polys));
    const std::vector<float> points = kit::testing::random_floats(
        static_cast<std::size_t>(n_points), seed ^ static_cast<std::uint64_t>(n_points));
    kit::DeviceBuffer<float> d_coefs(coefs), d_points(points);
    kit::DeviceBuffer<float> d_out(static_cast<std::size_t>(n_polys) * n_points);
    d_out.fill_bytes(0xff); // NaN poison: a value never written cannot pass
    eval_polys(d_coefs.get(), n_polys, d_points.get(), n_points, d_out.get());
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = d_out.download();
    const std::vector<lesson04::testing::Expected> want =
        lesson04::testing::reference(coefs, n_polys, points);
    for (std::size_t j = 0; j < got.size(); ++j) {
      ASSERT_NEAR(got[j], want[j].value, want[j].tol)
          << name << ": " << n_polys << " polynomials x " << n_points << " points, polynomial "
          << j / n_points << " at point " << j % n_points;
    }
  }
}

TEST(EvalPolys, MatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("eval_polys", [](const float* c, int np, const float* x, int nx,
                                          float* o) { lesson04::eval_polys(c, np, x, nx, o); });
}

TEST(EvalPolys, TwinMatchesTheCpuOnRandomData) {
  KIT_REQUIRE_GPU();
  expect_matches_the_cpu("eval_polys_twin",
                         [](const float* c, int np, const float* x, int nx, float* o) {
                           lesson04::testing::eval_polys_twin(c, np, x, nx, o);
                         });
}

// Size 0 (or a zero dimension) launches nothing and touches no memory: no error, even with
// null pointers.
TEST(EmptyInput, LaunchesNothingAndReportsNoError) {
  KIT_REQUIRE_GPU();
  lesson04::eval_polys(nullptr, 0, nullptr, 0, nullptr);
  lesson04::eval_polys(nullptr, 3, nullptr, 0, nullptr);
  lesson04::eval_polys(nullptr, 0, nullptr, 5, nullptr);
  lesson04::testing::eval_polys_twin(nullptr, 0, nullptr, 5, nullptr);
  lesson04::center_blocks(nullptr, nullptr, 0);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

} // namespace
