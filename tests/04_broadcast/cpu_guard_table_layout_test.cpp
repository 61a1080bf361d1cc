// The table layout must lose no coefficient: CoefLayout maps the block's 16 x 32 coefficients
// one-to-one into the kTableCapacity floats of the table (the starter's layout already does;
// keep it so).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/layout.hpp"

namespace {

TEST(TableLayout, OneToOneIntoTheTable) {
  const auto clash = kit::first_collision(lesson04::CoefLayout{}, lesson04::kPolysPerBlock,
                                          lesson04::kCoefs, lesson04::kTableCapacity);
  ASSERT_FALSE(clash) << "polynomial " << clash->b.row << ", coefficient " << clash->b.col
                      << " at offset " << clash->offset
                      << (clash->offset < 0 || clash->offset >= lesson04::kTableCapacity
                              ? " lies outside the table's kTableCapacity floats"
                              : " shares its float with polynomial " +
                                    std::to_string(clash->a.row) + ", coefficient " +
                                    std::to_string(clash->a.col));
}

} // namespace
