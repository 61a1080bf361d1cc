#include "probe_kernels.hpp"

namespace kit {
namespace {

__global__ void counter_probe_kernel(unsigned* out) {
  __shared__ unsigned s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp();
  out[threadIdx.x] = s[31 - threadIdx.x];
}

} // namespace

void launch_counter_probe(unsigned* out) {
  counter_probe_kernel<<<1, 32>>>(out);
}

} // namespace kit
