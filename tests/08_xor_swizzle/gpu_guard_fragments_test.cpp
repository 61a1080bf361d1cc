// ldmatrix through the fragment tiles on the GPU: every register of every lane holds the two
// halves the mma fragment layout says, bit for bit, for your tile, the padded tile and the
// plain one. A swizzle that moves a chunk the ldmatrix addresses do not follow reads the
// wrong row. The starter is slow but right; keep it right.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/testing.hpp"

namespace {

using lesson08::kFragmentCols;
using lesson08::kFragmentRows;
using lesson08::kFragmentSteps;
using LoadFragments = std::function<void(const __half*, unsigned*, int)>;

constexpr int kMatrices = 4;

/// The register of lane `lane` for matrix `m` of k-step `step` of a tile (row-major halves as
/// 16-bit patterns): row 8 (m % 2) + lane / 4, columns 16 step + 8 (m / 2) + 2 (lane % 4) and
/// the next one, the first in the low half.
std::uint32_t expected_register(const std::uint16_t* tile, int step, int m, int lane) {
  const int row = 8 * (m % 2) + lane / 4;
  const int col = 16 * step + 8 * (m / 2) + 2 * (lane % 4);
  return static_cast<std::uint32_t>(tile[row * kFragmentCols + col]) |
         static_cast<std::uint32_t>(tile[row * kFragmentCols + col + 1]) << 16;
}

void expect_fragments(const std::string& name, const LoadFragments& load) {
  const int tiles = kit::small_mode() ? 3 : 257;
  constexpr int kHalves = kFragmentRows * kFragmentCols;
  const std::vector<std::uint32_t> bits = kit::testing::random_bits(
      static_cast<std::size_t>(tiles) * kHalves / 2, kit::testing::fresh_seed());
  std::vector<std::uint16_t> halves(bits.size() * 2);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    halves[2 * i] = static_cast<std::uint16_t>(bits[i]);
    halves[2 * i + 1] = static_cast<std::uint16_t>(bits[i] >> 16);
  }
  kit::DeviceBuffer<std::uint16_t> d_in(halves);
  const std::size_t regs = static_cast<std::size_t>(tiles) * kFragmentSteps * kMatrices * 32;
  kit::DeviceBuffer<unsigned> d_out(regs);
  d_out.fill_bytes(0xff);
  load(reinterpret_cast<const __half*>(d_in.get()), d_out.get(), tiles);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned> got = d_out.download();
  for (int t = 0; t < tiles; ++t) {
    for (int s = 0; s < kFragmentSteps; ++s) {
      for (int m = 0; m < kMatrices; ++m) {
        for (int lane = 0; lane < 32; ++lane) {
          const std::size_t i = ((static_cast<std::size_t>(t) * kFragmentSteps + s) * kMatrices +
                                 static_cast<std::size_t>(m)) *
                                    32 +
                                static_cast<std::size_t>(lane);
          ASSERT_EQ(got[i], expected_register(halves.data() + static_cast<std::size_t>(t) * kHalves,
                                              s, m, lane))
              << name << ": tile " << t << ", k-step " << s << ", matrix " << m << ", lane "
              << lane;
        }
      }
    }
  }
}

TEST(Fragments, YourTileExact) {
  KIT_REQUIRE_GPU();
  expect_fragments("load_fragments", [](const __half* in, unsigned* out, int tiles) {
    lesson08::load_fragments(in, out, tiles);
  });
}

TEST(Fragments, PaddedAndPlainTilesExact) {
  KIT_REQUIRE_GPU();
  expect_fragments("load_fragments_padded", [](const __half* in, unsigned* out, int tiles) {
    lesson08::load_fragments_padded(in, out, tiles);
  });
  expect_fragments("load_fragments_plain", [](const __half* in, unsigned* out, int tiles) {
    lesson08::load_fragments_plain(in, out, tiles);
  });
}

} // namespace
