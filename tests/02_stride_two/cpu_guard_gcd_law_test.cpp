// The lesson's gcd law for float strides, held against the bank model for every stride from
// 1 to 128; and the model's count for stride 0.
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
