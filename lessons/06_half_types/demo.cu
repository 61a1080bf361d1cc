#include <demo.hpp>

namespace lesson06 {
namespace {

template <class IndexFn>
kit::Pattern pattern(const char* name, int elem_bytes, IndexFn index) {
  kit::Pattern p;
  p.name = name;
  p.access.width = elem_bytes;
  for (unsigned lane = 0; lane < kit::kWarpSize; ++lane) {
    p.access.address[lane] = index(lane) * static_cast<unsigned>(elem_bytes); // index -> bytes
  }
  return p;
}

constexpr int kHalfBytes = sizeof(__half);
constexpr int kFloatBytes = sizeof(float);

} // namespace

kit::Pattern half_stride_one_demo() {
  return pattern("half stride 1", kHalfBytes, half_stride_one_index);
}
kit::Pattern half_stride_two_demo() {
  return pattern("half stride 2", kHalfBytes, half_stride_two_index);
}
kit::Pattern half_column_demo() {
  return pattern("half column of a 32x32 tile", kHalfBytes, half_column_index);
}
kit::Pattern float_column_demo() {
  return pattern("float column of a 32x32 tile", kFloatBytes, float_column_index);
}
kit::Pattern half_stride_64_demo() {
  return pattern("half stride 64", kHalfBytes, half_stride_64_index);
}
kit::Pattern float_stride_one_demo() {
  return pattern("float stride 1", kFloatBytes, float_stride_one_index);
}

} // namespace lesson06
