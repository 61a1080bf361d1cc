// Part 3 on the CPU: every ldmatrix.x4 of your fragment tile costs its ideal 4 wavefronts.
#include <gtest/gtest.h>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/layout.hpp"
#include "kit/ldmatrix.hpp"

namespace {

TEST(FragmentTile, EveryLdmatrixAtItsIdeal) {
  for (int step = 0; step < lesson08::kFragmentSteps; ++step) {
    const kit::LdsmPattern p =
        lesson08::ldsm_demo<lesson08::FragmentTile>("your fragment tile", 4, step);
    const kit::BankReport r = kit::analyze_ldsm(p.access);
    ASSERT_TRUE(r.ok()) << p.name << ": " << kit::to_string(r.error);
    EXPECT_EQ(r.wavefronts, r.ideal)
        << p.name << " costs " << r.wavefronts << " wavefronts (ideal " << r.ideal
        << "): the 8 rows of matrix 0 start in banks " << r.lanes[0].bank << ", " << r.lanes[1].bank
        << ", " << r.lanes[2].bank << ", ... Which bits of the offset pick "
        << "the 16-byte chunk, and which the row?\n"
        << kit::print_layout(lesson08::FragmentTile{}, 8);
    if (r.wavefronts != r.ideal) {
      return;
    }
  }
}

} // namespace
