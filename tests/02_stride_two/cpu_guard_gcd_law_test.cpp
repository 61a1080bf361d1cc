// The lesson's claim, held against the bank model: a float stride s costs gcd(s, 32)
// wavefronts (odd strides are free), and stride 0 is a broadcast.
#include <gtest/gtest.h>

#include <numeric>

#include <demo.hpp>

#include "kit/bank_model.hpp"

namespace {

TEST(GcdLaw, HoldsInTheModelForStridesUpTo128) {
  for (unsigned s = 1; s <= 128; ++s) {
    EXPECT_EQ(kit::wavefronts(lesson02::stride_demo(s).access),
              static_cast<int>(std::gcd(s, static_cast<unsigned>(kit::kNumBanks))))
        << "stride " << s;
  }
}

TEST(GcdLaw, StrideZero) {
  EXPECT_EQ(kit::wavefronts(lesson02::stride_demo(0).access), 1);
}

} // namespace
