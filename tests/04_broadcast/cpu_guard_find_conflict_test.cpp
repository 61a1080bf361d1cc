// center_blocks must keep every warp's partial sum: partial_offset gives each warp a float of
// its own below kPartialCapacity (the layout as found already does; keep it so).
#include <gtest/gtest.h>

#include <vector>

#include <exercise.hpp>

namespace {

TEST(FindConflict, EachWarpHasItsOwnSlot) {
  std::vector<int> owner(lesson04::kPartialCapacity, -1);
  for (int w = 0; w < lesson04::kCenterWarps; ++w) {
    const int o = lesson04::partial_offset(w);
    ASSERT_GE(o, 0) << "warp " << w << "'s offset is " << o;
    ASSERT_LT(o, lesson04::kPartialCapacity)
        << "warp " << w << "'s offset " << o << " is outside `partials`";
    ASSERT_EQ(owner[o], -1) << "warps " << owner[o] << " and " << w << " share offset " << o;
    owner[o] = w;
  }
}

} // namespace
