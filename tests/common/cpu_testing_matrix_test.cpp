// The transpose comparison's message: a wrong output element is named with the input element
// it holds and the one it should, so that a student sees which index of theirs went astray.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kit/testing_matrix.hpp"

namespace {

using kit::testing::Shape;

std::vector<std::uint32_t> numbered(Shape s) {
  std::vector<std::uint32_t> v(s.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = 0x1000u + static_cast<std::uint32_t>(i);
  }
  return v;
}

std::string message(const ::testing::AssertionResult& r) {
  EXPECT_FALSE(r);
  return r.message();
}

TEST(SameTranspose, TheTransposePasses) {
  const Shape s{3, 5};
  const auto in = numbered(s);
  EXPECT_TRUE(kit::testing::same_transpose(kit::testing::cpu_transpose(in, s), in, s, 32));
}

TEST(SameTranspose, ACopyNamesTheElementItHoldsAndTheOneItShould) {
  // A kernel that copies instead of transposing: out(0, 1) holds in(0, 1) where in(1, 0) goes.
  const Shape s{3, 5};
  const auto in = numbered(s);
  const std::string m = message(kit::testing::same_transpose(in, in, s, 32));
  EXPECT_NE(m.find("out(0, 1) in output tile (0, 0), holds in(0, 1); expected in(1, 0)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("the 3 x 5 input transposed is 5 x 3"), std::string::npos) << m;
}

TEST(SameTranspose, AnElementNeverWrittenSaysSo) {
  const Shape s{4, 4};
  const auto in = numbered(s);
  auto got = kit::testing::cpu_transpose(in, s);
  got[6] = ~0u; // out(1, 2)
  const std::string m = message(kit::testing::same_transpose(got, in, s, 2));
  EXPECT_NE(m.find("1 of 16 output elements differ"), std::string::npos) << m;
  EXPECT_NE(m.find("out(1, 2) in output tile (0, 1), was never written"), std::string::npos) << m;
  EXPECT_NE(m.find("expected in(2, 1)"), std::string::npos) << m;
}

TEST(SameTranspose, AValueOfNoInputElementAndRepeatedValuesAreNamed) {
  const Shape s{2, 2};
  std::vector<std::uint16_t> in = {7, 7, 9, 11};
  auto got = kit::testing::cpu_transpose(in, s);
  got[1] = 7; // out(0, 1) should hold in(1, 0) = 9
  std::string m = message(kit::testing::same_transpose(got, in, s, 32));
  EXPECT_NE(m.find("holds in(0, 0) (or one of 1 other input elements of the same value)"),
            std::string::npos)
      << m;
  got[1] = 3;
  m = message(kit::testing::same_transpose(got, in, s, 32));
  EXPECT_NE(m.find("holds 0x0003, the value of no input element"), std::string::npos) << m;
}

} // namespace
