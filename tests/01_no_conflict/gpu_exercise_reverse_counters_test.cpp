// Part 3 on the GPU, read by the counters: reverse_blocks makes one wavefront per
// shared-memory request, stores and loads (a file of its own: counter tests run alone).
#include <gtest/gtest.h>

#include <string>

#include <exercise.hpp>

#include "kit/bank_model.hpp"
#include "kit/buffer.hpp"
#include "kit/testing.hpp"
#include "reverse_trace.hpp"

namespace {

class ReverseCounters : public kit::testing::CounterTest {};

TEST_F(ReverseCounters, OneWavefrontPerRequest) {
  for (int n : {lesson01::kBlockThreads * 64, lesson01::kBlockThreads * 3 + 77}) {
    kit::DeviceBuffer<float> d_in(n), d_out(n);
    d_in.fill_bytes(0);
    const kit::SharedCounters c =
        session().measure([&] { lesson01::reverse_blocks(d_in.get(), d_out.get(), n); });
    kit::testing::report("reverse_blocks n=" + std::to_string(n), c,
                         lesson01::testing::reverse_trace(n).expected());
    const int ideal = kit::ideal_wavefronts(sizeof(float));
    EXPECT_EQ(c.sass.store_wavefronts, ideal * c.sass.store_requests)
        << "n = " << n << ": the staging stores conflict (" << c.sass.store_wavefronts
        << " wavefronts for " << c.sass.store_requests << " requests)";
    EXPECT_EQ(c.sass.load_wavefronts, ideal * c.sass.load_requests)
        << "n = " << n << ": the readback loads conflict (" << c.sass.load_wavefronts
        << " wavefronts for " << c.sass.load_requests << " requests)";
  }
}

} // namespace
