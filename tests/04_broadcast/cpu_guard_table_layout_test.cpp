// The table layout must lose no coefficient: coef_slot maps the block's 16 x 32 coefficients
// one-to-one into the kTableCapacity floats of the table (the starter's layout already does;
// keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(TableLayout, OneToOneIntoTheTable) {
  std::vector<int> owner(lesson04::kTableCapacity, -1);
  for (int q = 0; q < lesson04::kPolysPerBlock; ++q) {
    for (int k = 0; k < lesson04::kCoefs; ++k) {
      const int s = lesson04::coef_slot(q, k);
      ASSERT_GE(s, 0) << "polynomial " << q << ", coefficient " << k;
      ASSERT_LT(s, lesson04::kTableCapacity)
          << "polynomial " << q << ", coefficient " << k << " lies outside the table";
      ASSERT_EQ(owner[s], -1) << "float " << s << " holds two coefficients";
      owner[s] = q * lesson04::kCoefs + k;
    }
  }
}

} // namespace
