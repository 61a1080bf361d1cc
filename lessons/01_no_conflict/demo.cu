#include <demo.hpp>

namespace lesson01 {

kit::Pattern stride_one_demo() {
  return kit::indexed_pattern("float stride 1", sizeof(float), stride_one_index);
}
kit::Pattern stride_33_demo() {
  return kit::indexed_pattern("float stride 33", sizeof(float), stride_33_index);
}
kit::Pattern permuted_demo() {
  return kit::indexed_pattern("float permutation (7l+3)%32", sizeof(float), permuted_index);
}

} // namespace lesson01
