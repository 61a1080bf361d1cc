// The stride-sweep lab's claim, in the model: the jagged shape (every lane in a row of its
// own) against the plain stride at every offset from 1 to 64, and offset 0 of both shapes.
#include <gtest/gtest.h>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "shapes.hpp"

namespace {

TEST(Shapes, JaggedAgainstThePlainStrideFromOffset1) {
  for (int offset = 1; offset <= 64; ++offset) {
    EXPECT_EQ(kit::wavefronts(lesson10::testing::jagged_shape(offset).access),
              kit::wavefronts(lesson10::testing::plain_shape(offset).access))
        << "offset " << offset << ": the jagged shape against the plain stride";
  }
}

TEST(Shapes, OffsetZeroOfBothShapes) {
  const kit::BankReport plain = kit::analyze(lesson10::testing::plain_shape(0).access);
  EXPECT_EQ(plain.wavefronts, plain.ideal) << "offset 0 of the plain shape";
  EXPECT_EQ(kit::wavefronts(lesson10::testing::jagged_shape(0).access),
            kit::wavefronts(lesson10::testing::plain_shape(kit::kNumBanks).access))
      << "offset 0 of the jagged shape against the plain stride of one row of banks";
}

TEST(Shapes, ProbeTraceCountsEveryRead) {
  const lesson10::ProbeLaunch l{3, 96, 5};
  const kit::SharedCounts c = lesson10::probe_trace(lesson10::Probe::conflict, l).expected();
  const std::uint64_t reads = 3ull * 3 * 5 * lesson10::kProbeUnroll;
  EXPECT_EQ(c.load_requests, reads);
  EXPECT_EQ(c.load_wavefronts,
            reads * kit::wavefronts(lesson10::probe_pattern(lesson10::Probe::conflict).access));
  // Each block's fill writes every float of the tile once, 32 consecutive words a request.
  const std::uint64_t fill_per_block = (lesson10::kProbeFloats + 31) / 32;
  EXPECT_EQ(c.store_wavefronts, 3 * fill_per_block);
}

} // namespace
