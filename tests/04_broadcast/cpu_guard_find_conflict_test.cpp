// center_blocks must keep every warp's partial sum: partial_slot gives each warp a float of its
// own below kPartialCapacity (the layout as found already does; keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(FindConflict, EachWarpHasItsOwnSlot) {
  std::vector<int> owner(lesson04::kPartialCapacity, -1);
  for (int w = 0; w < lesson04::kCenterWarps; ++w) {
    const int s = lesson04::partial_slot(w);
    ASSERT_GE(s, 0) << "warp " << w;
    ASSERT_LT(s, lesson04::kPartialCapacity) << "warp " << w << "'s slot is outside `partials`";
    ASSERT_EQ(owner[s], -1) << "warps " << owner[s] << " and " << w << " share slot " << s;
    owner[s] = w;
  }
}

} // namespace
