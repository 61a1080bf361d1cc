#include <demo.hpp>

namespace lesson01 {
namespace {

template <class IndexFn>
kit::Pattern float_pattern(const char* name, IndexFn index) {
  kit::Pattern p;
  p.name = name;
  p.access.width = sizeof(float);
  for (unsigned lane = 0; lane < kit::kWarpSize; ++lane) {
    p.access.address[lane] = index(lane) * sizeof(float); // float index -> byte offset
  }
  return p;
}

} // namespace

kit::Pattern stride_one_demo() {
  return float_pattern("float stride 1", stride_one_index);
}
kit::Pattern stride_33_demo() {
  return float_pattern("float stride 33", stride_33_index);
}
kit::Pattern permuted_demo() {
  return float_pattern("float permutation (7l+3)%32", permuted_index);
}

} // namespace lesson01
